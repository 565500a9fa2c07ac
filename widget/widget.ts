/**
 * The chat widget a client embeds with one script tag. No framework: a launcher and a panel in a
 * shadow root (the host page's CSS cannot reach in, ours cannot leak out), styled only through
 * CSS custom properties set from the validated appearance values, text only ever set as text.
 */
import { CHAT_MESSAGE_MAX_CHARS } from "../contract/values/chat";
import { FEEDBACK_COMMENT_MAX_CHARS, type AnswerRating } from "../contract/values/conversations";
import { PANEL_ABOVE_LAUNCHER, PANEL_NARROW_MARGIN, PANEL_WINDOW_MARGIN } from "../contract/values/widget-layout";
import { typedText } from "./typed-text";

type Values = Record<string, string | number | boolean>;
type WidgetEvent =
  | { type: "start"; conversation_id: string }
  | { type: "delta"; text: string }
  | {
      type: "done";
      message_id: number;
      outcome: string;
      sources: { title: string; url: string }[];
      disclaimer: string | null;
      programs: { name: string; url: string }[];
    }
  | { type: "error"; message: string };

const FONTS: Record<string, string> = {
  system: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  sans: "Helvetica, Arial, sans-serif",
  serif: 'Georgia, "Times New Roman", serif',
  rounded: 'ui-rounded, "SF Pro Rounded", system-ui, sans-serif',
  mono: "ui-monospace, Menlo, Consolas, monospace",
};
const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

// A window too narrow for the panel at its distance from the edge on both sides (a phone's) keeps a
// small margin instead: the panel moves toward the launcher's edge (--shift), then narrows.
const STYLES = `
:host { all: initial; }
* { box-sizing: border-box; }
.root { position: fixed; bottom: var(--offset); z-index: var(--z); font-family: var(--font); font-size: var(--size); color: var(--bot-text); line-height: 1.45; }
.root.right { right: var(--offset); } .root.left { left: var(--offset); }
.launcher { display: inline-flex; align-items: center; gap: 8px; border: 0; border-radius: 999px; padding: 12px 18px; background: var(--primary); color: var(--header-text); font: inherit; font-weight: 600; cursor: pointer; box-shadow: 0 6px 20px rgba(0,0,0,.2); }
.launcher img { width: 24px; height: 24px; border-radius: 50%; object-fit: cover; }
.launcher:focus-visible, button:focus-visible, textarea:focus-visible, a:focus-visible { outline: 3px solid var(--primary); outline-offset: 2px; }
.panel { --margin: min(var(--offset), ${PANEL_NARROW_MARGIN}px); --panel-width: min(var(--width), 100vw - 2 * var(--margin)); --shift: min(0px, 100vw - var(--panel-width) - var(--offset) - var(--margin)); position: absolute; bottom: ${PANEL_ABOVE_LAUNCHER}px; width: var(--panel-width); height: var(--height); max-height: calc(100vh - max(${PANEL_WINDOW_MARGIN}px, var(--offset) + ${PANEL_ABOVE_LAUNCHER}px)); display: flex; flex-direction: column; background: var(--background); border-radius: var(--radius); box-shadow: 0 12px 40px rgba(0,0,0,.25); overflow: hidden; }
.root.right .panel { right: var(--shift); } .root.left .panel { left: var(--shift); }
[hidden] { display: none !important; }
.header { display: flex; align-items: center; gap: 10px; padding: 12px 14px; background: var(--primary); color: var(--header-text); }
.header img { height: 28px; max-width: 96px; object-fit: contain; }
.header h2 { margin: 0; font-size: 1.05em; flex: 1; }
.close { border: 0; background: transparent; color: inherit; font-size: 1.4em; line-height: 1; cursor: pointer; padding: 4px 8px; border-radius: 6px; }
.log { flex: 1; overflow-y: auto; padding: 14px; display: flex; flex-direction: column; gap: 10px; }
.row { display: flex; gap: 8px; align-items: flex-end; }
.row.user { justify-content: flex-end; }
.avatar { width: 28px; height: 28px; border-radius: 50%; object-fit: cover; flex: none; }
.bubble { max-width: 85%; padding: 9px 12px; border-radius: calc(var(--radius) * .8); white-space: pre-wrap; overflow-wrap: anywhere; }
.bot .bubble { background: var(--bot-bubble); color: var(--bot-text); }
.user .bubble { background: var(--user-bubble); color: var(--user-text); }
.note { display: block; margin-top: 6px; font-style: italic; opacity: .85; }
.sources { margin: 6px 0 0; padding: 0; list-style: none; font-size: .85em; }
.sources a { color: inherit; }
form { display: flex; gap: 8px; padding: 10px; border-top: 1px solid rgba(0,0,0,.1); }
textarea { flex: 1; resize: none; font: inherit; padding: 8px 10px; border: 1px solid rgba(0,0,0,.25); border-radius: 8px; min-height: 40px; max-height: 120px; color: #111; background: #fff; }
.send { border: 0; border-radius: 8px; padding: 0 14px; background: var(--primary); color: var(--header-text); font: inherit; font-weight: 600; cursor: pointer; }
.send:disabled { opacity: .6; cursor: default; }
.rate { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin-top: -4px; font-size: .85em; }
.thumb { border: 1px solid rgba(0,0,0,.25); border-radius: 999px; padding: 2px 10px; background: transparent; font: inherit; cursor: pointer; }
.thumb[aria-pressed=true] { background: var(--primary); border-color: var(--primary); }
.why { display: flex; flex-wrap: wrap; gap: 6px; flex-basis: 100%; }
.why label { flex-basis: 100%; }
.status { margin: 0; flex-basis: 100%; } .status:empty { display: none; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className = "", text = ""): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

/**
 * Only our own stored images, and only as image sources; and an image the console's preview holds
 * in memory (a blob of this page's own origin: one chosen in the form, not saved yet).
 */
const imageUrl = (origin: string, value: unknown) =>
  typeof value !== "string"
    ? ""
    : value.startsWith("/storage/public/")
      ? origin + value
      : value.startsWith(`blob:${window.location.origin}/`)
        ? value
        : "";
/** A name the panel or the launcher is known by: blank (saved before blanks were refused) is no name. */
const named = (value: unknown, fallback: string) => (typeof value === "string" && value.trim() ? value : fallback);
const num = (value: unknown, fallback: number) =>
  typeof value === "number" && Number.isFinite(value) ? value : fallback;

/**
 * The conversation's id, kept for the tab. A page that may not use storage (a frame sandboxed
 * without allow-same-origin, as site builders embed custom code; cookies blocked) throws on the
 * mere reading of `sessionStorage`: there the conversation lasts as long as the page.
 */
const tabMemory = {
  get(key: string) {
    try {
      return window.sessionStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string) {
    try {
      window.sessionStorage.setItem(key, value);
    } catch {
      // Kept in the widget only.
    }
  },
};

/**
 * Whether a key press belongs to an input method composing a word (Japanese, Chinese, Korean):
 * its Enter confirms the word and its Escape cancels it, so neither may send or close. Safari
 * reports the confirming Enter after the composition ended, with the key code 229 that input
 * methods give.
 */
const composing = (event: KeyboardEvent) => event.isComposing || event.keyCode === 229;

/** How far from its end the log still counts as read to the end, and follows what comes in. */
const LOG_END_SLACK = 24;

class Widget {
  private values: Values = {};
  private readonly root = el("div", "root right");
  private readonly launcher = el("button", "launcher");
  private readonly panel = el("section", "panel");
  private readonly title = el("h2");
  private readonly launcherText = el("span");
  private readonly logo = el("img");
  private readonly log = el("div", "log");
  private readonly input = el("textarea");
  private readonly send = el("button", "send", "Send");
  private conversationId: string | null;
  private busy = false;
  private greeting: HTMLElement | null = null;
  private autoOpenArmed = false;
  private everOpened = false;

  constructor(
    private readonly origin: string,
    private readonly key: string,
    private readonly triggerPoint: string,
  ) {
    this.conversationId = tabMemory.get(`assistant-widget:${key}`);
    const host = el("div");
    host.setAttribute("data-assistant-widget", "");
    const shadow = host.attachShadow({ mode: "open" });
    const panelId = "assistant-panel";
    this.panel.id = panelId;
    this.panel.hidden = true;
    this.panel.setAttribute("role", "dialog");
    this.launcher.type = "button";
    this.launcher.setAttribute("aria-controls", panelId);
    this.launcher.setAttribute("aria-expanded", "false");
    this.launcher.addEventListener("click", () => (this.panel.hidden ? this.open({ focus: true }) : this.close()));
    const header = el("div", "header");
    this.logo.alt = "";
    const close = el("button", "close", "×");
    close.type = "button";
    close.setAttribute("aria-label", "Close chat");
    close.addEventListener("click", () => this.close());
    // What an operator or a visitor wrote is laid out by its own script (an Arabic or Hebrew name
    // reads right to left), whatever the page around the widget says: the name, the launcher's
    // text, every message and each source.
    this.title.dir = "auto";
    this.launcherText.dir = "auto";
    header.append(this.logo, this.title, close);
    this.log.setAttribute("role", "log");
    this.log.setAttribute("aria-live", "polite");
    const form = el("form");
    const label = el("label", "sr", "Your message");
    label.htmlFor = "assistant-input";
    this.input.id = "assistant-input";
    this.input.rows = 1;
    this.input.dir = "auto";
    this.input.maxLength = CHAT_MESSAGE_MAX_CHARS;
    this.send.type = "submit";
    form.append(label, this.input, this.send);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.ask();
    });
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !composing(event)) {
        event.preventDefault();
        void this.ask();
      }
    });
    this.panel.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !composing(event)) this.close();
    });
    this.panel.append(header, this.log, form);
    this.root.append(this.panel, this.launcher);
    // Nothing shows until the agent's settings arrive: a launcher without its text would be an
    // empty, unnamed button to a visitor and to a screen reader.
    this.root.hidden = true;
    // A host page's Content-Security-Policy may refuse <style> elements (a style-src without
    // 'unsafe-inline'); a constructed stylesheet is outside its reach. Older browsers get the element.
    if (shadow.adoptedStyleSheets) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(STYLES);
      shadow.adoptedStyleSheets = [sheet];
    } else shadow.append(el("style", "", STYLES));
    shadow.append(this.root);
    document.body.append(host);
  }

  /** Applies appearance values; anything not of the expected shape keeps its default. */
  apply(values: Values) {
    this.values = values;
    const style = this.root.style;
    const colour = (name: string, css: string) => {
      const value = values[name];
      if (typeof value === "string" && HEX.test(value)) style.setProperty(css, value);
    };
    colour("primary_color", "--primary");
    colour("header_text_color", "--header-text");
    colour("background_color", "--background");
    colour("user_bubble_color", "--user-bubble");
    colour("user_text_color", "--user-text");
    colour("bot_bubble_color", "--bot-bubble");
    colour("bot_text_color", "--bot-text");
    style.setProperty("--font", FONTS[String(values.font_family)] ?? FONTS.system);
    style.setProperty("--size", `${num(values.font_size, 15)}px`);
    style.setProperty("--radius", `${num(values.corner_radius, 12)}px`);
    style.setProperty("--width", `${num(values.width, 380)}px`);
    style.setProperty("--height", `${num(values.height, 560)}px`);
    style.setProperty("--offset", `${num(values.offset, 20)}px`);
    style.setProperty("--z", String(num(values.z_index, 2147483000)));
    this.root.className = `root ${values.position === "bottom-left" ? "left" : "right"}`;
    this.root.hidden = false;
    const name = named(values.bot_name, "Assistant");
    this.title.textContent = name;
    this.panel.setAttribute("aria-label", name);
    this.input.placeholder = String(values.input_placeholder ?? "");
    this.launcher.replaceChildren();
    const icon = imageUrl(this.origin, values.launcher_icon_url);
    if (icon) {
      const img = el("img");
      img.src = icon;
      img.alt = "";
      this.launcher.append(img);
    }
    this.launcherText.textContent = named(values.launcher_text, "Chat");
    this.launcher.append(this.launcherText);
    const logo = imageUrl(this.origin, values.header_logo_url);
    this.logo.hidden = !logo;
    if (logo) this.logo.src = logo;
    // The greeting opens the conversation; new values only change its text.
    this.greeting ??= this.bubble("bot", "").bubble;
    this.greeting.textContent = String(values.greeting_message ?? "");
    // A new avatar (or none) shows beside every assistant message already there, as the preview needs.
    for (const row of this.log.querySelectorAll<HTMLElement>(".row.bot")) this.showAvatar(row);
    // So does a new name, in what a screen reader says before each of its messages.
    for (const speaker of this.log.querySelectorAll(".row.bot > .speaker")) speaker.textContent = this.speaker("bot");
    this.armAutoOpen(num(values.auto_open_delay, 0));
  }

  /**
   * Opens the panel by itself, once, `delay` seconds after the first values that ask for it. The
   * console's preview applies new values after every pause in typing: none of those may open the
   * panel again, nor may the timer open a panel the visitor has already opened (and maybe closed).
   */
  private armAutoOpen(delay: number) {
    if (this.autoOpenArmed || delay <= 0) return;
    this.autoOpenArmed = true;
    window.setTimeout(() => {
      if (!this.everOpened) this.open({ focus: false });
    }, delay * 1000);
  }

  /**
   * Shows the panel. Only the visitor's own click on the launcher moves the keyboard into it: a
   * panel opening by itself (or in the console's preview, beside a form being typed in) leaves
   * focus where the person is typing.
   */
  open({ focus }: { focus: boolean }) {
    this.panel.hidden = false;
    this.everOpened = true;
    this.launcher.setAttribute("aria-expanded", "true");
    if (focus) this.input.focus();
  }

  close() {
    this.panel.hidden = true;
    this.launcher.setAttribute("aria-expanded", "false");
    this.launcher.focus();
  }

  /** The assistant's avatar at the start of one of its message rows, or none when no avatar is set. */
  private showAvatar(row: HTMLElement) {
    const avatar = imageUrl(this.origin, this.values.avatar_url);
    let img = row.querySelector<HTMLImageElement>(":scope > img.avatar");
    if (!avatar) {
      img?.remove();
      return;
    }
    if (!img) {
      img = el("img", "avatar");
      img.alt = "";
      row.prepend(img);
    }
    img.src = avatar;
  }

  /** Who says a message, as a screen reader reads it out before the message ("You: …"). */
  private speaker(who: "bot" | "user") {
    return who === "user" ? "You: " : `${named(this.values.bot_name, "Assistant")}: `;
  }

  private bubble(who: "bot" | "user", text: string) {
    const row = el("div", `row ${who}`);
    // The log reads each new message aloud: without a name, the visitor cannot tell a question of
    // theirs from an answer. Only the colours say it on screen; this says it to a screen reader.
    // Beside the bubble, not in it: an error or a new greeting replaces the bubble's whole text.
    const speaker = el("span", "sr speaker", this.speaker(who));
    const bubble = el("div", "bubble", text);
    // Arabic or Hebrew reads right to left whatever the page around the widget says.
    bubble.dir = "auto";
    row.append(speaker, bubble);
    if (who === "bot") this.showAvatar(row);
    this.log.append(row);
    // A new message (the visitor's question, then its answer as it starts) takes the log to its end.
    this.log.scrollTop = this.log.scrollHeight;
    return { row, bubble };
  }

  /**
   * Changes the log and keeps it at its end if it was there: a visitor who scrolled up to read an
   * earlier message stays there while an answer comes in, and is followed again once back at the end.
   */
  private changeLog(change: () => void) {
    const log = this.log;
    const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight <= LOG_END_SLACK;
    change();
    if (atEnd) log.scrollTop = log.scrollHeight;
  }

  private async ask() {
    const message = typedText(this.input.value).trim();
    if (!message || this.busy) return;
    this.busy = true;
    // A disabled button loses focus to the page: someone who sent with the keyboard goes on typing.
    if (this.send.matches(":focus")) this.input.focus();
    this.send.disabled = true;
    this.input.value = "";
    this.bubble("user", message);
    const { bubble } = this.bubble("bot", "");
    bubble.setAttribute("aria-busy", "true");
    let answered = false;
    try {
      const response = await fetch(`${this.origin}/v1/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          key: this.key,
          trigger_point: this.triggerPoint,
          message,
          ...(this.conversationId ? { conversation_id: this.conversationId } : {}),
        }),
      });
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => ({}))) as { message?: string };
        this.changeLog(() => (bubble.textContent = body.message ?? "Sorry, something went wrong. Please try again."));
        return;
      }
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let pending = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        pending += decoder.decode(value, { stream: true });
        const lines = pending.split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines) {
          if (!line.trim()) continue;
          const event = JSON.parse(line) as WidgetEvent;
          if (event.type === "done") answered = true;
          this.changeLog(() => this.handle(event, bubble));
        }
      }
    } catch {
      this.changeLog(() => (bubble.textContent = "Sorry, the assistant could not be reached. Please try again."));
    } finally {
      // Not answered (refused, unreachable, failed on the way): the visitor gets back what they
      // typed, to change or send again, unless they have started typing something else.
      if (!answered && !this.input.value) this.input.value = message;
      bubble.removeAttribute("aria-busy");
      this.busy = false;
      this.send.disabled = false;
    }
  }

  /**
   * Under a finished answer: thumbs up and thumbs down, each sent at once (a second replaces the
   * first), and after a thumbs down an optional comment (sent again with a later thumbs down). What
   * the server refuses is said in the status line; the choice shown is the one stored, and a typed
   * comment stays where it was.
   */
  private rating(after: HTMLElement, messageId: number) {
    const conversationId = this.conversationId;
    const box = el("div", "rate");
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", "Rate this answer");
    const why = el("div", "why");
    const comment = el("textarea");
    const label = el("label", "", "What was wrong? (optional)");
    const sendComment = el("button", "send", "Send comment");
    const status = el("p", "status");
    status.setAttribute("role", "status");
    const thumb = (glyph: string, name: string, rating: AnswerRating) => {
      const button = el("button", "thumb", glyph);
      button.type = "button";
      button.setAttribute("aria-label", name);
      button.setAttribute("aria-pressed", "false");
      // A thumbs down sends the comment its box holds: sent again without it, it would erase the
      // comment stored (a second rating replaces the first) while the box still shows it.
      button.addEventListener(
        "click",
        () => void send(rating, rating === "down" ? comment.value.trim() || undefined : undefined),
      );
      return button;
    };
    const up = thumb("👍", "This answer helped", "up");
    const down = thumb("👎", "This answer did not help", "down");
    const buttons = [up, down, sendComment];
    const send = async (rating: AnswerRating, text?: string) => {
      buttons.forEach((button) => (button.disabled = true));
      status.textContent = "";
      let next: HTMLElement | null = null;
      try {
        const response = await fetch(`${this.origin}/v1/chat/feedback`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            key: this.key,
            conversation_id: conversationId,
            message_id: messageId,
            rating,
            ...(text ? { comment: text } : {}),
          }),
        });
        const body = (await response.json().catch(() => ({}))) as { message?: string };
        if (!response.ok) throw new Error(body.message);
        up.setAttribute("aria-pressed", String(rating === "up"));
        down.setAttribute("aria-pressed", String(rating === "down"));
        const askWhy = rating === "down" && text === undefined;
        why.hidden = !askWhy;
        status.textContent = askWhy ? "Thanks. Tell us what was wrong if you like." : "Thank you for your feedback.";
        // Focus follows what comes next: the comment box, or back to the thumb once the comment is sent.
        next = askWhy ? comment : text === undefined ? null : down;
      } catch (error) {
        status.textContent =
          (error instanceof Error && error.message) || "Sorry, your rating could not be sent. Please try again.";
      } finally {
        buttons.forEach((button) => (button.disabled = false));
        // Only now: a disabled button takes no focus.
        next?.focus();
      }
    };
    comment.id = `why-${messageId}`;
    label.htmlFor = comment.id;
    comment.maxLength = FEEDBACK_COMMENT_MAX_CHARS;
    comment.rows = 2;
    comment.dir = "auto";
    sendComment.type = "button";
    sendComment.addEventListener("click", () => void send("down", comment.value.trim()));
    why.hidden = true;
    why.append(label, comment, sendComment);
    box.append(up, down, why, status);
    after.after(box);
  }

  private handle(event: WidgetEvent, bubble: HTMLElement) {
    if (event.type === "start") {
      this.conversationId = event.conversation_id;
      tabMemory.set(`assistant-widget:${this.key}`, event.conversation_id);
    } else if (event.type === "delta") {
      bubble.append(document.createTextNode(event.text));
    } else if (event.type === "error") {
      bubble.textContent = event.message;
    } else {
      if (event.disclaimer) {
        const note = el("span", "note", event.disclaimer);
        note.dir = "auto";
        bubble.append(note);
      }
      const links = [
        ...(this.values.show_sources === false ? [] : event.sources),
        ...event.programs.map((p) => ({ title: p.name, url: p.url })),
      ];
      const safe = links.filter((link) => /^https?:\/\//.test(link.url));
      if (safe.length) {
        const list = el("ul", "sources");
        list.setAttribute("aria-label", "Sources");
        for (const link of safe) {
          const item = el("li");
          // A page's title in its own script, whichever script the answer above it is in.
          item.dir = "auto";
          const anchor = el("a", "", link.title);
          anchor.href = link.url;
          anchor.target = "_blank";
          anchor.rel = "noopener noreferrer";
          item.append(anchor);
          list.append(item);
        }
        bubble.append(list);
      }
      // A reply to small talk ("Hello! What would you like to know?") answers nothing worth rating.
      if (bubble.parentElement && event.outcome !== "small_talk") this.rating(bubble.parentElement, event.message_id);
    }
  }
}

declare global {
  interface Window {
    /** The preview's handle: `open` shows the panel and leaves focus in the console's form. */
    AssistantWidget?: { apply: (values: Values) => void; open: () => void };
  }
}

/** How many times the settings are asked for before the widget stays away from the page. */
const CONFIG_ATTEMPTS = 5;

/**
 * The agent's settings. A moment the server cannot answer (no network, a limit's 429, a 503 while
 * its database is away) is waited out and asked again, as its Retry-After says or after 2, 4, 8…
 * seconds (at most a minute); a refusal (an unknown key, a page not allowed) is final.
 */
async function widgetConfig(url: string): Promise<{ appearance: Values } | null> {
  for (let attempt = 1; ; attempt++) {
    let wait: number;
    try {
      const response = await fetch(url);
      if (response.ok) return (await response.json()) as { appearance: Values };
      if (response.status !== 429 && response.status < 500) return null;
      const retryAfter = Number(response.headers.get("Retry-After"));
      wait = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 2 ** attempt;
    } catch {
      wait = 2 ** attempt;
    }
    if (attempt >= CONFIG_ATTEMPTS) return null;
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 60) * 1000));
  }
}

(function start() {
  const script = document.currentScript as HTMLScriptElement | null;
  if (!script?.src) return;
  const origin = new URL(script.src).origin;
  const key = script.dataset.key ?? "";
  const triggerPoint = script.dataset.triggerPoint ?? "";
  const boot = async () => {
    const widget = new Widget(origin, key, triggerPoint);
    // The console's preview drives the widget with values not saved yet.
    if (script.dataset.preview === "true") {
      window.AssistantWidget = { apply: (values) => widget.apply(values), open: () => widget.open({ focus: false }) };
      window.addEventListener("message", (event) => {
        if (event.origin === window.location.origin && event.data?.type === "assistant-preview")
          widget.apply(event.data.values as Values);
      });
    }
    const config = await widgetConfig(
      `${origin}/v1/widget/config?${new URLSearchParams({ key, trigger_point: triggerPoint })}`,
    );
    if (config) widget.apply(config.appearance);
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => void boot());
  else void boot();
})();

export {};
