"""The rules as a form chooses them, for the new-game form and rescoring: a preset, a target
and any house rule of the one option table, each blank where it is left to the preset."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from ..rules.options import OptionSpec

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
            preset=get("preset").strip()[:12] or preset,
            target=get("target").strip()[:6],
            chosen=chosen,
        )
