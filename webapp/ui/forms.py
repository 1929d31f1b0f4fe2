"""The rules as a form chooses them, for the new-game form and rescoring: a preset, a target
and any house rule of the one option table, each blank where it is left to the preset; and
the presets and house rules as forms and the teaching pages offer them, their words said."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from ..i18n.words import say
from ..rules.options import PRESET_LIST, OptionSpec

Read = Callable[[str], str]  # a form field's text by name ("" when missing)


@dataclass(frozen=True, slots=True)
class RulesForm:
    """What the form says: the preset, the target typed, and each house rule chosen."""

    preset: str
    target: str = ""
    chosen: Mapping[str, str] = field(default_factory=dict)

    def __getitem__(self, name: str) -> str:
        """A house rule's choice, "" for "as the preset says" (the rule field macro reads it)."""
        return self.chosen.get(name, "")

    @property
    def changed(self) -> bool:
        """Whether anything beyond the preset was chosen (the house rules then show open)."""
        return bool(self.target) or any(self.chosen.values())

    @property
    def rules(self) -> dict[str, str]:
        """The options as ``Options.make`` takes them; blank ones are left out."""
        found = {"preset": self.preset, "target": self.target, **self.chosen}
        return {name: value for name, value in found.items() if value}

    @classmethod
    def read(cls, get: Read, specs: Iterable[OptionSpec], preset: str = "seed") -> RulesForm:
        """The form's fields, trimmed and cut to the lengths an option can have."""
        chosen = {spec.name: get(spec.name).strip()[:20] for spec in specs}
        return cls(
            preset=get("preset").strip()[:24] or preset,
            target=get("target").strip()[:6],
            chosen=chosen,
        )


@dataclass(frozen=True, slots=True)
class PresetChoice:
    """A preset as a page offers it: its name (the value a form sends), title and sentence."""

    name: str
    title: str
    sentence: str


def preset_choices() -> tuple[PresetChoice, ...]:
    """Every preset, in the order of the one table (R17, R18)."""
    return tuple(
        PresetChoice(name=preset.name, title=say(preset.title), sentence=say(preset.sentence))
        for preset in PRESET_LIST
    )


@dataclass(frozen=True, slots=True)
class RuleField:
    """One house rule as a form field (the rule field macro): its name, title, sentence and
    rule, and each value as the form sends it with its label, the preset's own first."""

    name: str
    rule: str
    title: str
    sentence: str
    choices: tuple[tuple[str, str], ...]


def rule_fields(specs: Iterable[OptionSpec]) -> tuple[RuleField, ...]:
    return tuple(
        RuleField(
            name=spec.name,
            rule=spec.rule,
            title=say(spec.title),
            sentence=say(spec.sentence),
            choices=tuple((str(value), say(label)) for value, label in spec.choices()),
        )
        for spec in specs
    )
