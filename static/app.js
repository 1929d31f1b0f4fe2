/* All Fives on the phone: what lives in the browser, hooked to the markup by small contracts.

   - Nothing lost: an action (a form posting to /g/<id>/… with a `seq` field) whose request
     fails, times out or meets a 502/503/504 is kept in localStorage with its exact fields and
     sent again, in order, when the connection is back. The line #sync says what is waiting:
     each play's tile and who played it. Every sentence it says is rendered by the server, in
     the reader's language, as a data attribute (_base/sync.html, _base/device.html).
   - One tap, one action: a tap on a control that lands within GUARD_MS of the tap before it, at
     the same spot, is the second tap of a double tap and is ignored, whatever the first tap
     put under the finger (an end choice, the picker after a choice, the next hand's panel).
   - [data-guard]: a control that also ignores a click whose press began before it was shown,
     or that comes within GUARD_MS of it being shown (a person reads the question first).
   - form[data-persist="<key>"]: its inputs are kept as they are typed and put back after a
     reload or a swap; dropped once a form with that key is submitted successfully.
   - [data-points] on a swapped-in notice: a short vibration when it is more than 0.
   - The "this phone" panel (_device.html): keep the screen awake, and the colour theme.
   - input[enterkeyhint="next"]: Enter moves to the form's next field with an enterkeyhint.
   - [data-print]: a button hidden without this script, shown by it, that prints the page.
   - #stream (htmx's SSE extension): the game's changes as they happen. While it has said
     hello, the poll (#live, every 2 s) is not sent; a change this page already shows (its own
     tap's answer brought it) is not swapped again, nor one that comes while its tap is on its
     way (the answer shows the game; anything newer is then asked for once). A stream silent
     for 2.5 of its beats is opened again after one catch-up poll; a hidden tab holds none.

   No inline script anywhere (the CSP forbids it); this file is loaded with `defer`. */
(function () {
  "use strict";

  var PREFIX = "allfives.";
  var QUEUE_KEY = PREFIX + "queue";
  var FORM_PREFIX = PREFIX + "form.";
  var RETRY_MS = 3000;
  var SEND_TIMEOUT_MS = 8000;
  var GUARD_MS = 350;
  var RETRYABLE = [502, 503, 504];
  var DELIVERED = /^(2\d\d|409|422)$/;
  var ACTION_PATH = /^\/g\/[^/]+\/[a-z_]+$/;

  // --- storage that never throws (private mode, storage full) -------------------------------

  function load(key, fallback) {
    try {
      var raw = window.localStorage.getItem(key);
      return raw === null ? fallback : JSON.parse(raw);
    } catch (e) {
      return fallback;
    }
  }

  function save(key, value) {
    try {
      if (value === null) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, JSON.stringify(value));
    } catch (e) { /* nothing to do: the page still works, it just will not remember */ }
  }

  // --- the status line, in the reader's language ------------------------------------------

  var hideTimer = null;

  // A sentence the page holds in a data-say-* attribute of `holder` (#sync, the wake-lock
  // note), its {placeholders} filled in: JavaScript never writes a word of its own.
  function words(holder, key, fill) {
    // "chooseFirst" is data-say-choose-first
    var text = (holder && holder.dataset["say" + key.charAt(0).toUpperCase() + key.slice(1)]) || "";
    Object.keys(fill || {}).forEach(function (name) {
      text = text.replace("{" + name + "}", function () { return String(fill[name]); });
    });
    return text;
  }

  function part(tag, className, text) {
    var element = document.createElement(tag);
    element.className = className;
    if (text) element.textContent = text;
    return element;
  }

  // say("saved", "saved", 4000): the sentence data-say-saved of #sync, in its tone; `extra` (the
  // plays waiting) is shown under it.
  function say(key, tone, linger, fill, extra) {
    var line = document.getElementById("sync");
    if (!line) return;
    window.clearTimeout(hideTimer);
    line.replaceChildren(part("span", "sync-text", words(line, key, fill)));
    if (extra) line.appendChild(extra);
    line.className = "sync " + tone;
    line.hidden = false;
    if (linger) {
      hideTimer = window.setTimeout(function () { line.hidden = true; }, linger);
    }
  }

  // --- nothing lost: the queue of actions not yet answered ----------------------------------

  var queue = load(QUEUE_KEY, []);
  if (!Array.isArray(queue)) queue = [];
  var sending = false;
  var flying = 0; // this page's actions sent by htmx, their answers not in yet
  var lastProblem = ""; // why the last sending failed: a key of #sync's sentences
  // Entries tapped one after another on the same screen carry the same seq. When the one before
  // was applied and moved the game on by exactly one revision, the next is sent at the new one:
  // the server's revision check still refuses it if anyone else's play came in between.
  var advanced = {};
  var paused = null; // the answer asked a question (an end to choose): wait for it
  var elsewhere = false; // an answer asks a question that only the game's own screen can show

  function pageSeq() {
    var live = document.getElementById("live");
    return live ? parseInt(live.getAttribute("data-seq"), 10) : NaN;
  }

  function isAction(config) {
    return config.verb === "post" && ACTION_PATH.test(config.path) && config.formData &&
      config.formData.has("seq");
  }

  function fieldsOf(formData) {
    var fields = [];
    formData.forEach(function (value, name) {
      if (typeof value === "string") fields.push([name, value]);
    });
    return fields;
  }

  function remember() {
    save(QUEUE_KEY, queue.length ? queue : null);
  }

  function fieldOf(entry, name) {
    var found = "";
    entry.fields.forEach(function (field) { if (field[0] === name) found = field[1]; });
    return found;
  }

  // What a waiting entry is, as the player tapped it: a play is its tile and the player whose
  // turn the screen showed, named only for the first entry tapped on that screen (the screen
  // does not move on offline, so it cannot say whose turn the next one was); another action is
  // its button's label ("Draw", "Undo: …").
  function describe(entry, submitter) {
    var tile = fieldOf(entry, "tile");
    if (tile) {
      var seq = fieldOf(entry, "seq");
      var first = !queue.some(function (kept) { return fieldOf(kept, "seq") === seq; });
      var turn = document.querySelector("#scores .to-play");
      return { who: first && turn ? turn.textContent.trim() : "", what: "" };
    }
    if (!submitter) return { who: "", what: "" };
    var label = submitter.getAttribute("aria-label");
    if (!label) {
      label = "";
      submitter.childNodes.forEach(function (node) { // "Draw", not its "7 left"
        if (node.nodeName !== "SMALL") label += node.textContent;
      });
    }
    return { who: "", what: label.trim() };
  }

  function enqueue(entry, problem) {
    queue.push({
      path: entry.path, fields: entry.fields, at: Date.now(), who: entry.who, what: entry.what,
    });
    remember();
    lastProblem = problem;
    showWaiting();
  }

  // The tiles waiting to be sent look pressed on the picker, so nobody taps them twice.
  function markWaiting() {
    var waiting = {};
    queue.forEach(function (entry) {
      entry.fields.forEach(function (field) { if (field[0] === "tile") waiting[field[1]] = true; });
    });
    document.querySelectorAll("#work button[name=tile]").forEach(function (button) {
      button.classList.toggle("waiting", waiting[button.value] === true);
    });
  }

  // The tile as the picker draws it, when the picker is on this page.
  function picture(tile) {
    var found = null;
    document.querySelectorAll("#work button[name=tile]").forEach(function (button) {
      if (button.value === tile && !found) found = button.querySelector("svg");
    });
    return found ? found.cloneNode(true) : null;
  }

  // Under the status line: how many wait, and each one, "Ana: 6-4 — not saved yet".
  function waitingList() {
    var line = document.getElementById("sync");
    var list = part("span", "sync-plays");
    if (queue.length > 1) {
      list.appendChild(part("span", "sync-count", words(line, "count", { count: queue.length })));
    }
    queue.forEach(function (entry) {
      var tile = fieldOf(entry, "tile");
      var what = tile || entry.what || "";
      var item = part("span", "sync-play");
      var drawn = tile && picture(tile);
      if (drawn) item.appendChild(drawn);
      var key = tile && entry.who ? "playBy" : "play";
      item.appendChild(part("span", "", words(line, key, { tile: what, name: entry.who })));
      list.appendChild(item);
    });
    return list;
  }

  function showWaiting() {
    markWaiting();
    if (!queue.length) return;
    var why = navigator.onLine === false ? "offline" : (lastProblem || "sending");
    if (sending && navigator.onLine !== false) why = "sending";
    else if (paused) why = "chooseFirst";
    else if (elsewhere) why = "elsewhere";
    say(why, "waiting", 0, null, waitingList());
  }

  function seqOf(entry) {
    return parseInt(fieldOf(entry, "seq"), 10);
  }

  // Is this page the game screen the entry was tapped on? (Any page of the app sends what
  // waits; only that game's screen shows the answer.)
  function onItsGame(entry) {
    return location.pathname === entry.path.replace(/\/[a-z_]+$/, "");
  }

  // The revision the game is at after the last answer (read from the answer itself, so that
  // it is known on any page).
  var answered = NaN;


  function seqIn(answer) {
    // The revision is on the poll region, sent with every answer that moved the game (a
    // refusal sends only its notice: the revision did not change).
    var live = answer.getElementById("live");
    return live ? parseInt(live.getAttribute("data-seq"), 10) : NaN;
  }

  function sendSeq(entry) {
    var tapped = seqOf(entry);
    var ahead = advanced[tapped] || 0;
    return ahead && answered === tapped + ahead ? tapped + ahead : tapped;
  }

  function flush() {
    if (sending || paused || elsewhere || !queue.length) return;
    if (navigator.onLine === false) { showWaiting(); return; }
    var entry = queue[0];
    var tapped = seqOf(entry);
    var seq = sendSeq(entry);
    var body = new URLSearchParams();
    entry.fields.forEach(function (field) {
      body.append(field[0], field[0] === "seq" ? String(seq) : field[1]);
    });
    var abort = new AbortController();
    var timer = window.setTimeout(function () { abort.abort(); }, SEND_TIMEOUT_MS);
    sending = true;
    showWaiting();
    fetch(entry.path, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      signal: abort.signal,
      headers: { "HX-Request": "true", "HX-Target": "game", "HX-Current-URL": location.href },
    }).then(function (response) {
      if (RETRYABLE.indexOf(response.status) >= 0) throw new Error("server");
      return response.text().then(function (html) { deliver(entry, tapped, seq, response, html); });
    }).catch(function (error) {
      if (error && error.name === "AbortError") lastProblem = "late";
      else if (navigator.onLine === false) lastProblem = "offline";
      else lastProblem = error && error.message === "server" ? "server" : "connection";
    }).then(function () {
      window.clearTimeout(timer);
      sending = false;
      catchUp();
      if (queue.length) { showWaiting(); if (!paused) window.setTimeout(flush, 0); }
    });
  }

  function deliver(entry, tapped, seq, response, html) {
    var delivered = DELIVERED.test(String(response.status));
    var answer = new DOMParser().parseFromString(html, "text/html");
    var target = onItsGame(entry) ? document.getElementById("game") : null;
    if (response.ok && !target && answer.querySelector("[data-guard]")) {
      elsewhere = true; // kept: sent again from the game's screen, which shows the question
      return;
    }
    queue.shift();
    remember();
    if (delivered && target && window.htmx) {
      // The answer is the regions it changed, each swapped into place by its id (out of band).
      window.htmx.swap(target, html, { swapStyle: "none", swapDelay: 0, settleDelay: 0 });
    }
    markWaiting();
    var now = delivered ? seqIn(answer) : NaN;
    if (delivered && isNaN(now)) now = pageSeq(); // an answer that did not move the game
    answered = now;
    if (response.ok && now === seq + 1) advanced[tapped] = (advanced[tapped] || 0) + 1;
    if (response.ok && target && document.querySelector("#game [data-guard]")) {
      paused = { tapped: tapped, at: now };
    }
    if (!delivered) {
      say("refused", "refused", 0, { status: response.status });
    } else if (paused && !queue.length) {
      say("choose", "waiting");
    } else if (queue.length) {
      showWaiting();
    } else if (response.ok) {
      say("saved", "saved", 4000);
    } else {
      say("notApplied", "saved", 6000);
    }
  }

  function afterUserSwap() {
    // The question the queue waited on was answered (or dropped): carry on.
    if (!paused || document.querySelector("#game [data-guard]")) return;
    answered = pageSeq();
    var chosen = answered === paused.at + 1;
    if (chosen) advanced[paused.tapped] = (advanced[paused.tapped] || 0) + 1;
    paused = null;
    if (queue.length) flush();
    else if (chosen) say("saved", "saved", 4000);
    else say("notEntered", "refused", 6000);
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var config = event.detail;
    if (!isAction(config)) return;
    var entry = { path: config.path, fields: fieldsOf(config.formData) };
    var tapped = describe(entry, config.triggeringEvent && config.triggeringEvent.submitter);
    entry.who = tapped.who;
    entry.what = tapped.what;
    config.allfivesEntry = entry;
    if ((queue.length && !paused) || navigator.onLine === false) {
      event.preventDefault(); // behind what is waiting, in order
      enqueue(entry, navigator.onLine === false ? "offline" : lastProblem);
      flush();
      return;
    }
    entry.flying = true; // sent by htmx now: the stream's news waits for its answer
    flying += 1;
  });

  function landed(event) {
    var config = event.detail.requestConfig;
    var entry = config && config.allfivesEntry;
    if (!entry || !entry.flying) return;
    entry.flying = false;
    flying -= 1;
    catchUp();
  }
  ["htmx:afterRequest", "htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, landed);
  });

  function failed(event, problem) {
    var config = event.detail.requestConfig;
    var entry = config && config.allfivesEntry;
    if (!entry || entry.queued) return;
    entry.queued = true;
    enqueue(entry, navigator.onLine === false ? "offline" : problem);
  }

  document.addEventListener("htmx:sendError", function (event) { failed(event, "connection"); });
  document.addEventListener("htmx:timeout", function (event) { failed(event, "late"); });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && RETRYABLE.indexOf(xhr.status) >= 0) failed(event, "server");
  });
  window.addEventListener("online", flush);
  window.addEventListener("offline", showWaiting);
  window.setInterval(flush, RETRY_MS);

  // --- no accidental entries: one tap, one action; [data-guard] -----------------------------

  var TAP_SLOP_PX = 24; // a finger tapping twice lands within this of where it first did
  var CONTROL = "button, a[href], input[type=submit]"; // what enters or leads somewhere
  var lastTap = null; // {at, x, y} of the last tap on a control
  var lastPress = -Infinity;
  var shownAt = typeof WeakMap === "function" ? new WeakMap() : null;

  function markShown(root) {
    if (!shownAt) return;
    var now = performance.now();
    var found = root.matches && root.matches("[data-guard]") ? [root] : [];
    root.querySelectorAll("[data-guard]").forEach(function (el) { found.push(el); });
    found.forEach(function (el) { if (!shownAt.has(el)) shownAt.set(el, now); });
  }

  function block(event) {
    event.preventDefault();
    event.stopImmediatePropagation();
  }

  // The second tap of a double tap: close in time and place to the tap before it. Each tap of
  // a quick series counts from the one before, so a triple tap is one tap too.
  function doubleTap(event) {
    var tap = { at: event.timeStamp, x: event.clientX, y: event.clientY };
    var before = lastTap;
    lastTap = tap;
    return before !== null && tap.at - before.at < GUARD_MS &&
      Math.abs(tap.x - before.x) <= TAP_SLOP_PX && Math.abs(tap.y - before.y) <= TAP_SLOP_PX;
  }

  document.addEventListener("pointerdown", function (event) { lastPress = event.timeStamp; }, true);
  document.addEventListener("click", function (event) {
    var control = event.target.closest && event.target.closest(CONTROL);
    if (!control) return;
    var byPointer = event.detail > 0; // keyboard clicks have no press and no place
    if (byPointer && doubleTap(event)) { block(event); return; }
    var guarded = control.closest("[data-guard]");
    if (!guarded || !shownAt) return;
    var shown = shownAt.get(guarded);
    if (shown === undefined) {
      // Swapped in but not yet announced by htmx: it appeared this very moment.
      shown = performance.now();
      shownAt.set(guarded, shown);
    }
    var early = performance.now() - shown < GUARD_MS;
    var pressedBefore = byPointer && lastPress < shown;
    if (early || pressedBefore) block(event);
  }, true);

  // --- settlement survives a reload: form[data-persist] --------------------------------------

  function persistedFields(form) {
    return Array.prototype.filter.call(form.elements, function (el) {
      return el.name && (el.type === "checkbox" || el.type === "number" || el.type === "text" ||
        el.tagName === "SELECT");
    });
  }

  function keep(form) {
    var values = {};
    var fields = persistedFields(form);
    if (!fields.length) return; // a confirming form of hidden fields shares the key: no say
    fields.forEach(function (el) {
      if (el.type === "checkbox") {
        if (el.checked) (values[el.name] = values[el.name] || []).push(el.value);
      } else if (el.value !== "") {
        values[el.name] = el.value;
      }
    });
    var any = Object.keys(values).length > 0;
    save(FORM_PREFIX + form.dataset.persist, any ? { at: Date.now(), values: values } : null);
  }

  function restore(form) {
    var kept = load(FORM_PREFIX + form.dataset.persist, null);
    if (!kept || !kept.values) { keep(form); return; }
    persistedFields(form).forEach(function (el) {
      var value = kept.values[el.name];
      if (el.type === "checkbox") {
        el.checked = Array.isArray(value) && value.indexOf(el.value) >= 0;
        var details = el.closest("details");
        if (el.checked && details) details.open = true;
      } else if (value !== undefined) {
        el.value = value;
      }
    });
    // What was typed before the reload is previewed again, as if it had just been typed.
    form.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function restoreAll(root) {
    var forms = root.matches && root.matches("form[data-persist]") ? [root] : [];
    root.querySelectorAll("form[data-persist]").forEach(function (form) { forms.push(form); });
    forms.forEach(restore);
  }

  function forgetOld() {
    var week = 7 * 24 * 3600 * 1000;
    try {
      for (var i = window.localStorage.length - 1; i >= 0; i--) {
        var key = window.localStorage.key(i);
        if (key && key.indexOf(FORM_PREFIX) === 0) {
          var kept = load(key, null);
          if (!kept || !(Date.now() - kept.at < week)) window.localStorage.removeItem(key);
        }
      }
    } catch (e) { /* storage off */ }
  }

  function onInput(event) {
    var form = event.target.form;
    if (form && form.dataset.persist) keep(form);
  }
  document.addEventListener("input", onInput);
  document.addEventListener("change", onInput);
  // A successful submission drops what was kept; once the answer is on screen, a form with the
  // same key (the settlement's preview still shows it) keeps its values from there.
  var submitted = [];
  document.addEventListener("htmx:afterRequest", function (event) {
    // The form itself, even once the answer has replaced it (detail.elt is then another element).
    var config = event.detail.requestConfig;
    var elt = config && config.elt;
    var form = elt && elt.closest ? elt.closest("form") : null;
    var posted = config && config.verb === "post"; // the preview's GETs submit nothing
    if (form && form.dataset.persist && posted && event.detail.successful) {
      submitted.push(form.dataset.persist);
    }
  });

  function afterSubmitted() {
    submitted.splice(0).forEach(function (key) {
      save(FORM_PREFIX + key, null);
      document.querySelectorAll("form[data-persist]").forEach(function (form) {
        if (form.dataset.persist === key) keep(form);
      });
    });
  }

  // --- a short vibration when a play scores -------------------------------------------------

  var reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

  function buzz() {
    if (!navigator.vibrate || (reduced && reduced.matches)) return;
    // A play sent for the phone when a page opens (a tap that waited) has no tap on this page
    // behind it: the browser refuses to vibrate then, so it is not asked to.
    var touched = navigator.userActivation ? navigator.userActivation.hasBeenActive : true;
    if (!touched) return;
    var notice = document.querySelector("#notice [data-points]");
    if (notice && parseInt(notice.dataset.points, 10) > 0) navigator.vibrate(60);
  }

  // --- this phone: keep the screen on -------------------------------------------------------

  var WAKE_KEY = PREFIX + "wakelock";
  var lock = null;

  function wakeButton() { return document.querySelector("[data-wakelock]"); }

  // The note's sentences (_base/device.html): data-say-on, data-say-off, …
  function wakeNote(key) {
    var note = document.querySelector("[data-wakelock-note]");
    if (note) note.textContent = words(note, key);
  }

  function showWake(on) {
    var button = wakeButton();
    if (button) button.setAttribute("aria-pressed", on ? "true" : "false");
  }

  function acquire() {
    if (!("wakeLock" in navigator)) {
      wakeNote("unsupported");
      showWake(false);
      return;
    }
    if (lock || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      showWake(true);
      wakeNote("on");
      sentinel.addEventListener("release", function () { lock = null; });
    }).catch(function () {
      showWake(false);
      wakeNote("refused");
    });
  }

  function releaseLock() {
    if (lock) lock.release();
    lock = null;
    showWake(false);
    wakeNote("off");
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-wakelock]");
    if (!button) return;
    var on = button.getAttribute("aria-pressed") !== "true";
    save(WAKE_KEY, on ? "on" : null);
    if (on) acquire(); else releaseLock();
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && load(WAKE_KEY, null) === "on") acquire();
  });

  // --- this phone: colours ------------------------------------------------------------------

  var THEME_KEY = PREFIX + "theme";
  var FELT = { light: "#17432f", dark: "#0f2e21" };

  function applyTheme(choice) {
    var root = document.documentElement;
    if (choice === "light" || choice === "dark") root.setAttribute("data-theme", choice);
    else root.removeAttribute("data-theme");
    document.querySelectorAll("meta[name=theme-color]").forEach(function (meta) {
      var scheme = /dark/.test(meta.media) ? "dark" : "light";
      meta.content = FELT[choice === "light" || choice === "dark" ? choice : scheme];
    });
    document.querySelectorAll("[data-theme-choice]").forEach(function (button) {
      var mine = button.dataset.themeChoice === (choice || "system");
      button.setAttribute("aria-pressed", mine ? "true" : "false");
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-theme-choice]");
    if (!button) return;
    var choice = button.dataset.themeChoice;
    save(THEME_KEY, choice === "system" ? null : choice);
    applyTheme(choice === "system" ? null : choice);
  });

  // --- Enter goes to the next name: input[enterkeyhint=next] --------------------------------

  // Enter in a field whose keyboard says "next" moves to the next field of its form that has an
  // enterkeyhint, instead of submitting; the last ("go") submits as usual.
  document.addEventListener("keydown", function (event) {
    var field = event.target;
    if (event.key !== "Enter" || event.isComposing || !field.form) return;
    if (!field.matches("input[enterkeyhint=next]")) return;
    var fields = Array.prototype.slice.call(field.form.querySelectorAll("input[enterkeyhint]"));
    var next = fields[fields.indexOf(field) + 1];
    if (!next) return;
    event.preventDefault();
    next.focus();
  });

  // --- the clock of a timed game: time[data-clock] (R30) ------------------------------------
  // The server draws the minutes left and the moment time is up (datetime, UTC); here the
  // clock counts down to it each second. At 0:00 it only stops: the table calls time.

  function tickClocks() {
    document.querySelectorAll("time[data-clock]").forEach(function (clock) {
      var ends = Date.parse(clock.getAttribute("datetime"));
      var left = Math.max(0, Math.floor((ends - Date.now()) / 1000));
      var shown = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      if (clock.textContent !== shown) clock.textContent = shown;
      clock.classList.toggle("up", left === 0);
    });
  }
  window.setInterval(tickClocks, 1000);

  // --- the focus follows the hand: [data-focus] --------------------------------------------
  // An answer to this phone's own tap may swap away the control that had the focus; the focus
  // then goes where the hand goes next, which the server marks with [data-focus]: the element
  // itself if it takes the focus (a heading with tabindex), else its first enabled control.

  // Draw, Pass and Undo hand the focus on too, though the answer may put the same control
  // back (htmx gives the focus to a swapped element of the same id).
  var focusAfter = false;
  var pressed = null; // Draw, Pass or Undo, when the tap was one of them

  document.addEventListener("htmx:beforeRequest", function (event) {
    var from = event.detail.elt;
    if (!from || !from.closest || !from.closest("#game") || from.id === "live") return;
    focusAfter = true;
    var control = document.activeElement;
    pressed = control && control.matches && control.matches("#controls button") ? control : null;
  });

  function focusNext() {
    if (!focusAfter) return;
    var active = document.activeElement;
    var handedOn = pressed && active && (active === pressed || (pressed.id && active.id === pressed.id));
    // Still there (a preview's answer, a refusal): the tap's own answer may be yet to come.
    if (!handedOn && active && active !== document.body && document.contains(active)) return;
    pressed = null;
    focusAfter = false;
    var mark = document.querySelector("#game [data-focus]");
    if (!mark) return;
    var target = mark.hasAttribute("tabindex") ? mark : mark.querySelector(
      "button:not([disabled]), input:not([type=hidden]):not([disabled]), select, a[href]");
    if (target) target.focus();
  }

  // --- what is said: the live region's verbosity, speech, on demand ---------------------------
  // This phone's ⚙ sets how much the live region says after a play: "full" (all of the notice:
  // the play and its sum, who is next, the scores) or "short" (what [data-long] does not mark,
  // and [data-short], said only then: the points, the tile and its end, who is next; a refusal
  // and its reason). The parts not said are hidden from the ear before the notice is swapped
  // in, so a screen reader never hears them. "Speak results" says the same
  // aloud with the browser's speech synthesis, in the page's language, when the phone has a
  // voice for it; when it has none nothing is said (another language's voice would garble the
  // words) and the ⚙ panel says so.

  var VERBOSITY_KEY = PREFIX + "verbosity";
  var SPEAK_KEY = PREFIX + "speak";

  function shortly() { return load(VERBOSITY_KEY, "full") === "short"; }

  function hideLong(root) {
    var short = shortly();
    root.querySelectorAll("[data-long], [data-short]").forEach(function (el) {
      if (short === el.hasAttribute("data-long")) el.setAttribute("aria-hidden", "true");
      else el.removeAttribute("aria-hidden");
    });
  }

  // The text an element says to the ear: without what is hidden from it.
  function saidIn(element) {
    var text = "";
    element.childNodes.forEach(function (node) {
      if (node.nodeType === 3) text += node.textContent;
      else if (node.nodeType === 1 && !node.hidden && node.getAttribute("aria-hidden") !== "true") {
        text += " " + saidIn(node) + " ";
      }
    });
    return text.replace(/\s+/g, " ").trim();
  }

  function voiceFor(lang) {
    var voices = window.speechSynthesis ? window.speechSynthesis.getVoices() : [];
    var mine = voices.filter(function (voice) {
      return String(voice.lang).toLowerCase().split(/[-_]/)[0] === lang;
    });
    return mine.filter(function (voice) { return voice.localService; })[0] || mine[0] || null;
  }

  function speechNote() {
    var note = document.querySelector("[data-speak-note]");
    if (!note) return;
    var on = load(SPEAK_KEY, null) === "on";
    var key = on ? "on" : "off";
    if (on && !window.speechSynthesis) key = "unsupported";
    else if (on && !voiceFor(document.documentElement.lang)) key = "novoice";
    note.textContent = words(note, key);
    document.querySelectorAll("[data-speak]").forEach(function (button) {
      button.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }

  function speak(text) {
    if (load(SPEAK_KEY, null) !== "on" || !window.speechSynthesis || !text) return;
    var voice = voiceFor(document.documentElement.lang);
    if (!voice) return;
    var utterance = new window.SpeechSynthesisUtterance(text);
    utterance.voice = voice;
    utterance.lang = voice.lang;
    window.speechSynthesis.cancel(); // the newest result, not a queue of old ones
    window.speechSynthesis.speak(utterance);
  }

  // Said on demand (the keys o, s, n): a line added to the live region, under the notice.
  function readOut(text) {
    var notice = document.getElementById("notice");
    if (!notice || !text) return;
    var old = notice.querySelector("[data-readout]");
    if (old) old.remove(); // a new line, so the same words are said again
    var line = part("p", "visually-hidden", text);
    line.setAttribute("data-readout", "");
    notice.appendChild(line);
    speak(text);
  }

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var fragment = event.detail.fragment;
    if (event.detail.target.id === "notice" && fragment) hideLong(fragment);
  });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (event.detail.target.id === "notice") speak(saidIn(event.detail.target));
  });

  function showVerbosity() {
    var chosen = shortly() ? "short" : "full";
    document.querySelectorAll("[data-verbosity]").forEach(function (button) {
      button.setAttribute("aria-pressed", button.dataset.verbosity === chosen ? "true" : "false");
    });
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest && event.target.closest("[data-verbosity], [data-speak]");
    if (!target) return;
    if (target.hasAttribute("data-speak")) {
      save(SPEAK_KEY, target.getAttribute("aria-pressed") === "true" ? null : "on");
    } else {
      save(VERBOSITY_KEY, target.dataset.verbosity === "short" ? "short" : null);
      hideLong(document);
    }
    showVerbosity();
    speechNote();
  });
  if (window.speechSynthesis && window.speechSynthesis.addEventListener) {
    window.speechSynthesis.addEventListener("voiceschanged", speechNote);
  }

  // --- the keyboard on the game screen: [data-keys] ------------------------------------------
  // A tile is played by typing its two numbers ("6" then "4", either order): its button is
  // pressed, so the server decides as for a tap (it fits one end: played; several: the end
  // choice, where 1, 2, … pick an end and Esc cancels). The arrows move among the tiles, or the
  // ends (one tab stop each). d, p, u press Draw, Pass, Undo; o, s, n say the open ends, the
  // scores and what each side needs ([data-read], drawn by the server); ? shows the keys' list
  // (in More, which brings it). The keys work only while the focus is in the game (WCAG 2.1.4),
  // never in a text field or with Ctrl, Alt or Meta. Every sentence is the page's own (#game's
  // data-say-*).

  // This phone's ⚙ may turn the keys off (for a screen reader whose own keys they would take):
  // then typing does nothing here, and every tile is a tab stop of its own again.
  var KEYS_KEY = PREFIX + "keys";

  function keysOn() { return load(KEYS_KEY, null) !== "off"; }

  function showKeysSwitch() {
    var on = keysOn();
    document.querySelectorAll("[data-keys-switch]").forEach(function (button) {
      button.setAttribute("aria-pressed", on ? "true" : "false");
    });
    var note = document.querySelector("[data-keys-note]");
    if (note) note.textContent = words(note, on ? "on" : "off");
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-keys-switch]");
    if (!button) return;
    save(KEYS_KEY, keysOn() ? "off" : null);
    showKeysSwitch();
    rove();
  });

  var half = null; // the first number of a tile typed: {digit, at}
  var HALF_MS = 4000;
  var PRESS = { d: "#controls .draw", p: "#controls .pass", u: "#controls .undo" };

  function tileButtons() {
    return Array.prototype.slice.call(document.querySelectorAll("#work form.tiles button[name=tile]"));
  }

  function choiceButtons() {
    return Array.prototype.slice.call(document.querySelectorAll("#work .choice .choice-button"));
  }

  // One tab stop for the 28 tiles: the focused one (or the first that can be played).
  function rove() {
    var tiles = tileButtons();
    var current = tiles.indexOf(document.activeElement) >= 0 ? document.activeElement :
      tiles.filter(function (button) { return !button.disabled; })[0];
    var on = keysOn();
    tiles.forEach(function (button) { button.tabIndex = !on || button === current ? 0 : -1; });
  }

  function markHalf(digit) {
    tileButtons().forEach(function (button) {
      button.classList.toggle("keyed", digit !== null && button.value.indexOf(digit) >= 0);
    });
  }

  function press(control) {
    control.focus();
    control.click();
  }

  function typeNumber(digit) {
    var keys = document.querySelector("[data-keys]");
    var now = Date.now();
    if (!half || now - half.at > HALF_MS) {
      half = { digit: digit, at: now };
      markHalf(digit);
      readOut(words(keys, "half", { number: digit }));
      return;
    }
    var first = half.digit;
    half = null;
    markHalf(null);
    var found = tileButtons().filter(function (button) {
      return button.value === first + "-" + digit || button.value === digit + "-" + first;
    })[0];
    if (!found) return;
    if (found.disabled) readOut(words(keys, "played", { tile: found.value }));
    else press(found);
  }

  // The next control from `from` in `list`, `step` at a time, skipping what cannot be pressed.
  function moveIn(list, from, step) {
    var at = list.indexOf(from);
    if (at < 0) return list.filter(function (el) { return !el.disabled; })[0];
    for (var i = at + step; i >= 0 && i < list.length; i += step) {
      if (!list[i].disabled) return list[i];
    }
    return null;
  }

  function arrow(key) {
    var choices = choiceButtons();
    var back = key === "ArrowLeft" || key === "ArrowUp" ? -1 : 1;
    if (choices.length) {
      var cancel = document.querySelector("#work .choice-cancel");
      var stops = cancel ? choices.concat([cancel]) : choices;
      var at = stops.indexOf(document.activeElement);
      stops[(at + back + stops.length) % stops.length].focus();
      return true;
    }
    var tiles = tileButtons();
    if (!tiles.length) return false;
    var form = tiles[0].form;
    var columns = window.getComputedStyle(form).gridTemplateColumns.split(" ").length || 7;
    var step = key === "ArrowUp" || key === "ArrowDown" ? back * columns : back;
    var next = moveIn(tiles, document.activeElement, step);
    if (next) { next.focus(); rove(); }
    return true;
  }

  // ? opens More with its keys' list, the focus on the list's heading. The list comes with the
  // sheet's content, asked for as the sheet opens (not in every page); until it has come there
  // is nothing to focus, and when it cannot come (offline) the live region says so.
  var keysAsked = false;

  function keysShown() {
    var list = document.getElementById("keys");
    var heading = list && list.querySelector("summary");
    if (!heading) return false;
    keysAsked = false;
    list.open = true;
    heading.focus({ preventScroll: true });
    list.scrollIntoView({ block: "start" }); // the list in view, not only its heading
    return true;
  }

  function showKeys() {
    var more = document.getElementById("more");
    if (!more || !document.getElementById("keys")) return; // a watch link: no keys
    if (more.open && keysShown()) return;
    keysAsked = true;
    if (more.open) more.dispatchEvent(new Event("toggle")); // its content asked for again
    else more.open = true; // its toggle asks for its content
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    if (keysAsked && event.target.id === "more-live") keysShown();
  });
  // More's content (the log, the settings, the share links, the language) comes when it opens:
  // offline, the sheet says why it has only its links, first in it (its reader finds it there;
  // the live region stays the game's).
  ["htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      var live = event.target;
      if (live.id !== "more-live" || live.querySelector(".more-offline")) return;
      var note = document.createElement("p");
      note.className = "hint more-offline";
      note.textContent = live.getAttribute("data-say-offline");
      live.insertBefore(note, live.firstChild);
    });
  });
  ["htmx:sendError", "htmx:timeout", "htmx:responseError"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (!keysAsked || event.target.id !== "more-live" || keysShown()) return;
      keysAsked = false;
      readOut(words(document.querySelector("[data-keys]"), "keysOffline"));
    });
  });

  document.addEventListener("keydown", function (event) {
    var game = document.getElementById("game");
    var from = event.target;
    // The focus is in the game, or was until this phone's own answer swapped its control away
    // (it is handed on once the answer settles): a key typed meanwhile is not lost.
    var inGame = game && (game.contains(from) || (from === document.body && focusAfter));
    if (!inGame || !game.hasAttribute("data-keys") || !keysOn()) return;
    if (event.ctrlKey || event.altKey || event.metaKey || event.isComposing) return;
    if (from.matches("input, select, textarea, [contenteditable]")) return;
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    var choices = choiceButtons();
    var handled = true;
    if (/^[0-9]$/.test(key) && choices.length) {
      var place = choices[parseInt(key, 10) - 1];
      if (place) press(place);
    } else if (/^[0-6]$/.test(key) && tileButtons().length) {
      typeNumber(key);
    } else if (key === "Escape" && choices.length) {
      press(document.querySelector("#work .choice-cancel"));
    } else if (/^Arrow/.test(key)) {
      handled = arrow(key);
    } else if (PRESS[key]) {
      var control = document.querySelector(PRESS[key]);
      if (!control) handled = false;
      else if (control.disabled) {
        var name = control.firstChild ? control.firstChild.textContent.trim() : ""; // "Draw"
        readOut(control.title || words(document.querySelector("[data-keys]"), "cannot", { action: name }));
      } else press(control);
    } else if (key === "o" || key === "s" || key === "n") {
      var read = document.querySelector("#game [data-read=" + key + "]");
      if (read) readOut(read.textContent.trim());
    } else if (key === "?") {
      showKeys();
    } else {
      handled = false;
    }
    if (handled) event.preventDefault();
  });
  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("#work form.tiles button[name=tile]")) rove();
  });

  // --- following the game: the stream first, the poll when it is not heard --------------------
  // The stream's first event, "hello", proves events reach this page (behind a proxy that
  // buffers, none does): only then does the poll stop; a broken stream starts it again until
  // the browser's reconnection is heard from (it says the last revision it had: nothing lost).
  // The hello also says how often a "beat" comes: a stream silent for SILENT_BEATS beats (a
  // proxy or network that holds the connection but passes nothing) is closed, the poll sent
  // once to catch up, and the stream opened again. A hidden tab (a locked phone) holds no
  // stream and sends no poll; shown again, it catches up with one poll and reopens the stream.

  var SILENT_BEATS = 2.5;
  var streaming = false;
  var asking = false; // the poll is sent once, to catch up (see catchUp)
  var missed = 0; // the newest revision the stream brought while this page's tap was on its way
  var source = null; // the stream's EventSource, once open
  var beatMs = 20000; // as the stream's hello says
  var watchdog = null;
  var closed = null; // the #stream element taken out while the tab is hidden, to put back
  var expecting = false; // a stream this page opened again, its hello not heard yet
  var reopening = null; // the #stream element to put back once the catch-up poll has answered

  function heard(event) {
    streaming = true;
    expecting = false;
    try {
      var said = JSON.parse(event.data);
      if (said && said.beat > 0) beatMs = said.beat * 1000;
    } catch (e) { /* an older server's hello: the default interval */ }
    alive();
  }

  // Anything the stream says is a sign of life: the watchdog starts again.
  function alive() {
    window.clearTimeout(watchdog);
    watchdog = window.setTimeout(silent, SILENT_BEATS * beatMs);
  }

  function silent() {
    if (!streaming) return; // broken and reconnecting: the poll already runs meanwhile
    if (expecting) { expecting = false; streaming = false; return; } // reopened, not heard: poll
    reopen(closeStream());
  }

  // Take the stream out of the page: its EventSource closed, its element kept to put back.
  function closeStream() {
    var element = document.getElementById("stream");
    window.clearTimeout(watchdog);
    streaming = false;
    if (source) source.close();
    source = null;
    if (!element) return null;
    element.parentNode.removeChild(element);
    return element.cloneNode(false);
  }

  // Catch up with one poll, then open the stream again from the revision the page then shows
  // (opened before the poll's answer, it would bring the same change again).
  function reopen(element) {
    if (!element || !window.htmx) return;
    if (sending || flying > 0) {
      missed = Math.max(missed, pageSeq() + 1); // asked for after the tap's answer
      openStream(element);
    } else {
      reopening = element;
      askOnce().then(reopened, reopened); // answered, or failed: the stream is the way back
    }
  }

  function reopened() {
    var element = reopening;
    reopening = null;
    if (!element) return;
    if (document.hidden) closed = element;
    else openStream(element);
  }

  function openStream(element) {
    var game = document.getElementById("game");
    if (!game || document.getElementById("stream")) return;
    var url = new URL(element.getAttribute("sse-connect"), location.href);
    url.searchParams.set("seq", String(pageSeq()));
    element.setAttribute("sse-connect", url.pathname + url.search);
    game.appendChild(element);
    window.htmx.process(element);
    // It worked on this page before: no poll meanwhile, unless its hello does not come.
    streaming = expecting = true;
    alive();
  }

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) {
      closed = closeStream() || closed;
    } else if (closed) {
      var element = closed;
      closed = null;
      reopen(element);
    }
  });

  // The game was deleted on another phone: load it again, which says so (and how to undo it).
  function gone(event) {
    event.target.close();
    window.location.reload();
  }

  // The poll, sent once now; a promise settled when it has been answered.
  function askOnce() {
    var live = document.getElementById("live");
    if (!live || !window.htmx) return Promise.resolve();
    asking = true;
    return window.htmx.ajax("GET", live.getAttribute("hx-get"), { source: live, swap: "none" });
  }

  // While this page's own action is on its way, the stream's news waits: the action's answer
  // shows the game as it then stands. News still newer than that answer is asked for once.
  function catchUp() {
    if (sending || flying > 0) return;
    if (!(missed > pageSeq())) { missed = 0; return; }
    missed = 0;
    askOnce();
  }

  document.addEventListener("htmx:sseOpen", function (event) {
    var opened = event.detail.source;
    if (opened === source) return; // the same listeners once per source
    source = opened;
    opened.addEventListener("hello", heard);
    opened.addEventListener("beat", alive);
    opened.addEventListener("change", alive);
    opened.addEventListener("gone", gone);
  });
  function broken() { streaming = expecting = false; window.clearTimeout(watchdog); }
  document.addEventListener("htmx:sseError", broken);
  document.addEventListener("htmx:sseClose", broken);
  // Decided before htmx's hx-sync, so that a poll not sent never cancels one on its way (the
  // catch-up poll, which "this:replace" would otherwise abort).
  document.addEventListener("htmx:confirm", function (event) {
    if (!event.detail.elt || event.detail.elt.id !== "live") return;
    // Not while the stream is heard, the tab hidden, or the catch-up poll still on its way.
    if ((streaming || document.hidden || reopening) && !asking) event.preventDefault();
    asking = false;
  });
  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    var seq = parseInt(event.detail.lastEventId, 10);
    var waiting = sending || flying > 0;
    if (waiting) missed = Math.max(missed, seq);
    if (waiting || !(seq > pageSeq())) event.preventDefault();
  });

  // --- wiring -------------------------------------------------------------------------------

  document.addEventListener("htmx:load", function (event) {
    // A new notice, not an old one: its content is swapped in (the live region stays).
    var shown = event.detail.elt;
    if (shown.matches && shown.matches("#notice > [data-points]")) buzz();
    markShown(event.detail.elt);
    restoreAll(event.detail.elt);
    if (shown.id === "work") { half = null; rove(); }
  });
  // An answer swaps several regions, each settling on its own: what follows a whole answer
  // runs once, after the last of them.
  var settling = false;
  document.addEventListener("htmx:afterSettle", function (event) {
    if (settling) return;
    settling = true;
    window.setTimeout(function () {
      settling = false;
      markWaiting();
      afterSubmitted();
      afterUserSwap();
      focusNext();
    }, 0);
  });

  function start() {
    markShown(document);
    forgetOld();
    restoreAll(document);
    document.querySelectorAll("[data-device]").forEach(function (panel) { panel.hidden = false; });
    document.querySelectorAll("[data-print]").forEach(function (button) {
      button.hidden = false; // printing needs this script: without it, the browser's own print
      button.addEventListener("click", function () { window.print(); });
    });
    applyTheme(load(THEME_KEY, null));
    showVerbosity();
    speechNote();
    showKeysSwitch();
    hideLong(document);
    rove();
    if (load(WAKE_KEY, null) === "on") acquire();
    else if (!("wakeLock" in navigator)) {
      wakeNote("unsupported");
    }
    if (queue.length) { showWaiting(); flush(); }
    if ("serviceWorker" in navigator && document.documentElement.dataset.worker) {
      navigator.serviceWorker.register(document.documentElement.dataset.worker).catch(function () {
        /* no worker (private mode, an old browser): the app works online as before */
      });
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
