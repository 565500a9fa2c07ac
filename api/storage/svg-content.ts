import { Parser } from "htmlparser2";

/**
 * Whether an SVG could run script or load another document when opened. Logos are served as
 * sandboxed images besides; this refuses them at upload. It errs towards refusing: elements are
 * looked for in the raw text, attributes as a tolerant parser reads them (HTML's way of reading
 * included), and an ordinary logo (shapes, gradients, style sheets, embedded bitmaps, editors'
 * metadata, links to web pages) has none of what is looked for.
 */
export function svgHasActiveContent(text: string): boolean {
  return DECLARATIONS.test(text) || ACTIVE_ELEMENT.test(text) || hasActiveAttribute(text);
}

/**
 * Entity declarations (an entity can hold markup, a script element among it) and stylesheet
 * instructions (an XSLT stylesheet can turn the document into a page with scripts).
 */
const DECLARATIONS = /<!ENTITY|<\?xml-stylesheet/i;

/**
 * An element that runs script or embeds another document, whatever its prefix or case
 * (`<x:script xmlns:x="http://www.w3.org/1999/xhtml">` runs as an HTML script inside an SVG).
 * Read from the raw text, so no parser's reading can hide one: a name is never entity-encoded,
 * and one in a comment or a text is refused too.
 */
const ACTIVE_ELEMENT =
  /<(?:[^\s<>/"'=]*:)?(?:script|foreignobject|iframe|frame|frameset|embed|object|applet|portal|handler|base|meta)(?=[\s/>]|$)/i;

/**
 * An attribute that runs script: an event handler (`onload`, `x:onload`, any case), an animation
 * that would set one (`attributeName="onclick"`), or a value that is a `javascript:` (or
 * `vbscript:`) address however it is written (entity-encoded, split by whitespace or control
 * characters, any case). Any attribute counts: animations carry addresses in `to` and `values`.
 */
function hasActiveAttribute(text: string): boolean {
  let found = false;
  const parser = new Parser(
    {
      onattribute(name, value) {
        const local = localName(name);
        if (local.startsWith("on")) found = true;
        else if (local === "attributename" && localName(decodeReferences(value).trim()).startsWith("on")) found = true;
        else if (SCRIPT_SCHEME.test(compact(value))) found = true;
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(text);
  return found;
}

const SCRIPT_SCHEME = /(?:java|vb)script:/;

const localName = (name: string) => name.slice(name.lastIndexOf(":") + 1).toLowerCase();

/**
 * A value as an address parser reads it, lower-cased: character references decoded (once more
 * after the parser did, for a double encoding and for the names only HTML knows), and whitespace,
 * controls and invisible characters gone (a browser drops tabs and newlines anywhere in an
 * address, and spaces and controls around it).
 */
function compact(value: string): string {
  return decodeReferences(value).replace(INVISIBLE, "").toLowerCase();
}

// Controls are what is looked for here.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u0020\u007f-\u00a0\u00ad\u200b-\u200f\u2028\u2029\u2060\ufeff]/g;

/** Named references that an HTML parser would turn into what hides a scheme (the XML ones too). */
const NAMED = new Map([
  ["colon", ":"],
  ["tab", "\t"],
  ["newline", "\n"],
  ["amp", "&"],
  ["lt", "<"],
  ["gt", ">"],
  ["quot", '"'],
  ["apos", "'"],
]);

function decodeReferences(value: string): string {
  return value.replace(/&#x([0-9a-f]+);?|&#(\d+);?|&([a-z]+);?/gi, (reference, hex, decimal, name) => {
    if (name !== undefined) return NAMED.get(name.toLowerCase()) ?? reference;
    const code = parseInt(hex ?? decimal, hex ? 16 : 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : "";
  });
}
