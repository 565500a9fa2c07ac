import { describe, expect, it } from "vitest";
import { SVG_TEXT } from "../../tests/support/files";
import { validateLogo } from "./images";
import { svgHasActiveContent } from "./svg-content";

const SVG_NS = 'xmlns="http://www.w3.org/2000/svg"';
const XHTML = 'xmlns:x="http://www.w3.org/1999/xhtml"';
const XLINK = 'xmlns:xlink="http://www.w3.org/1999/xlink"';
const svg = (inside: string, attributes = "") => `<svg ${SVG_NS} ${XLINK}${attributes}>${inside}</svg>`;
const link = (href: string) => svg(`<a xlink:href="${href}"><rect width="10" height="10"/></a>`);

/** An SVG as Inkscape saves it: editor namespaces and metadata, gradients by reference, an embedded bitmap. */
const INKSCAPE_LOGO = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!-- Created with Inkscape (http://www.inkscape.org/) -->
<svg width="210mm" height="60mm" viewBox="0 0 210 60" version="1.1" id="svg5"
   inkscape:version="1.2.2 (b0a8486541, 2022-12-01)" sodipodi:docname="northfield-logo.svg"
   xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
   xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
   xmlns:xlink="http://www.w3.org/1999/xlink" xmlns="http://www.w3.org/2000/svg"
   xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <sodipodi:namedview id="namedview7" pagecolor="#ffffff" bordercolor="#666666" inkscape:zoom="0.7" inkscape:current-layer="layer1" />
  <defs id="defs2">
    <linearGradient inkscape:collect="always" id="linearGradient1"><stop style="stop-color:#1f4b99;stop-opacity:1" offset="0" /><stop style="stop-color:#14213d;stop-opacity:1" offset="1" /></linearGradient>
    <linearGradient xlink:href="#linearGradient1" id="linearGradient2" x1="0" y1="0" x2="210" y2="60" gradientUnits="userSpaceOnUse" />
  </defs>
  <metadata id="metadata1"><rdf:RDF><rdf:Description rdf:about=""><dc:format>image/svg+xml</dc:format><dc:title>Northfield: learn online, on campus</dc:title></rdf:Description></rdf:RDF></metadata>
  <g inkscape:label="Layer 1" inkscape:groupmode="layer" id="layer1">
    <rect style="fill:url(#linearGradient2);fill-opacity:1" id="rect1" width="60" height="60" x="0" y="0" ry="8" />
    <image width="40" height="40" x="10" y="10" preserveAspectRatio="none" id="image1"
       xlink:href="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk
+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==" />
    <text xml:space="preserve" style="font-size:22px;font-family:'Open Sans';fill:#14213d" x="70" y="38" id="text1"><tspan sodipodi:role="line" id="tspan1" x="70" y="38">Northfield</tspan></text>
  </g>
</svg>`;

/** An SVG as Illustrator exports it: a generator comment, a doctype, a style sheet, a link to the website. */
const ILLUSTRATOR_LOGO = `<?xml version="1.0" encoding="utf-8"?>
<!-- Generator: Adobe Illustrator 27.0.0, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg version="1.1" id="Layer_1" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" x="0px" y="0px"
	 viewBox="0 0 200 50" style="enable-background:new 0 0 200 50;" xml:space="preserve">
<style type="text/css">
	.st0{fill:#1F4B99;}
	.st1{font-family:'Montserrat-Bold';font-size:18px;}
</style>
<title>Harbor Outfitters — on the water since 1921</title>
<a xlink:href="https://shop.harbor-outfitters.com/?from=logo&amp;on=1" target="_blank">
	<circle class="st0" cx="25" cy="25" r="20" data-name="onboarding mark"/>
	<text transform="matrix(1 0 0 1 55 31)" class="st1">Harbor</text>
</a>
</svg>`;

describe("SVG logos", () => {
  it("accepts ordinary logos: plain, as Inkscape saves them, as Illustrator exports them", () => {
    for (const logo of [SVG_TEXT, INKSCAPE_LOGO, ILLUSTRATOR_LOGO]) {
      expect(svgHasActiveContent(logo)).toBe(false);
      expect(validateLogo("logo.svg", new TextEncoder().encode(logo))).toBe("svg");
    }
  });

  it.each([
    ["an XHTML script under a prefix", svg(`<x:script ${XHTML}>alert(1)</x:script>`)],
    [
      "a script under the SVG prefix",
      `<svg:svg xmlns:svg="http://www.w3.org/2000/svg"><svg:script>alert(1)</svg:script></svg:svg>`,
    ],
    ["a script in capitals", svg("<SCRIPT>alert(1)</SCRIPT>")],
    ["a script whose name ends the line", svg("<script\n>alert(1)</script>")],
    [
      "a script under a prefix that is not ASCII",
      svg(`<é:script xmlns:é="http://www.w3.org/1999/xhtml">alert(1)</é:script>`),
    ],
    ["a foreignObject", svg("<foreignObject><div>hi</div></foreignObject>")],
    ["a foreignObject under a prefix, in capitals", svg("<s:FOREIGNOBJECT xmlns:s='http://www.w3.org/2000/svg'/>")],
    ["an XHTML iframe", svg(`<x:iframe ${XHTML} srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"/>`)],
    ["an embed", svg(`<x:embed ${XHTML} src="/evil.swf"/>`)],
    ["an object", svg(`<x:object ${XHTML} data="/evil.html"/>`)],
    ["an onload handler", svg("", ' onload="alert(1)"')],
    ["a handler with spaces round its equals sign", svg("", " onload \n=\t'alert(1)'")],
    ["a handler after a slash", `<svg/onload=alert(1) ${SVG_NS}></svg>`],
    ["a handler in capitals", svg("", ' ONLOAD="alert(1)"')],
    ["a handler under a prefix", svg(`<x:img ${XHTML} src="x" x:onerror="alert(1)"/>`)],
    ["an image's error handler", svg('<image href="x" onerror="alert(1)"/>')],
    ["an animation that sets a handler", svg('<set attributeName="onclick" to="alert(1)"/>')],
    ["an animation that sets a prefixed, encoded handler", svg('<set attributeName=" x:&#111;nclick" to="alert(1)"/>')],
    ["a javascript: link", link("javascript:alert(1)")],
    ["a javascript: link in mixed case", link("JaVaScRiPt:alert(1)")],
    ["a scheme of decimal references", link("&#106;&#97;vascript:alert(1)")],
    ["a scheme of hexadecimal references with leading zeros", link("&#x0006A;avascript&#x3a;alert(1)")],
    ["a scheme without semicolons", link("&#106avascript&#58alert(1)")],
    ["a scheme with HTML's named references", link("java&amp;Tab;script&amp;colon;alert(1)")],
    ["a scheme split by a tab reference", link("java&#x09;script:alert(1)")],
    ["a scheme split by a newline", link("java\nscript:alert(1)")],
    ["a scheme after spaces and controls", link(" &#1;javascript:alert(1)")],
    ["a double-encoded scheme", link("&amp;#106;avascript:alert(1)")],
    [
      "an animation that sets a javascript: link",
      svg('<a><set attributeName="href" to="javascript:alert(1)"/><text>Go</text></a>'),
    ],
    [
      "an animation whose values hold a javascript: link",
      svg('<a><animate attributeName="href" values="https://x.org;javascript:alert(1)"/></a>'),
    ],
    ["a vbscript: link", link("vbscript:msgbox(1)")],
    ["an XSLT stylesheet", `<?xml-stylesheet type="text/xsl" href="/evil.xsl"?>${svg("")}`],
    ["an entity declaration", `<!DOCTYPE svg [<!ENTITY x "&#60;script&#62;alert(1)&#60;/script&#62;">]>${svg("&x;")}`],
  ])("refuses %s", (_, hostile) => {
    expect(svgHasActiveContent(hostile)).toBe(true);
    expect(() => validateLogo("logo.svg", new TextEncoder().encode(hostile))).toThrow(
      /^logo\.svg (contains scripts or embedded content, which logos may not|does not contain a SVG image)$/,
    );
  });
});
