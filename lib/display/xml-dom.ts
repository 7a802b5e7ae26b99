/**
 * A small XML DOM with just what three's 3MFLoader reads (documentElement, nodeName,
 * children, attributes, getAttribute(NS), getElementsByTagNameNS, textContent,
 * querySelector(All) of descendant tag names). A 2M-triangle 3MF holds three million
 * elements: with a full DOM (@xmldom/xmldom) the loader ran out of a 4 GB heap; here an
 * element costs about 100 bytes, its attributes kept as unparsed text until read.
 */

// Comments, processing instructions, CDATA, doctype, closing tags, opening/empty tags.
const TOKEN =
  /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>|<!DOCTYPE[^>]*>|<\/([^\s>]+)\s*>|<([^\s/>!?]+)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;
const ATTRIBUTE = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const ENTITY = /&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;
const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

const decode = (s: string): string =>
  s.includes("&")
    ? s.replace(
        ENTITY,
        (_, e: string) => NAMED[e] ?? String.fromCodePoint(e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)),
      )
    : s;

// Leaf elements (most of a model: vertices, triangles) share one empty child list, and
// elements of one tag one name string.
const NO_CHILDREN: XmlElement[] = [];
const names = new Map<string, string>();
const intern = (name: string): string => names.get(name) ?? (names.set(name, name), name);
const valueOf = new Map<string, RegExp>();

/** An element: name, scope and raw attribute text, parsed only when asked. */
export class XmlElement {
  readonly nodeType = 1;
  children: XmlElement[] = NO_CHILDREN;
  private text = "";

  constructor(
    readonly nodeName: string,
    private readonly rawAttributes: string,
    /** Namespace prefixes in scope ("" the default), shared with the parent unless it declares some. */
    readonly scope: ReadonlyMap<string, string>,
  ) {}

  get localName(): string {
    return this.nodeName.slice(this.nodeName.indexOf(":") + 1);
  }

  get namespaceURI(): string | null {
    const colon = this.nodeName.indexOf(":");
    return this.scope.get(colon < 0 ? "" : this.nodeName.slice(0, colon)) ?? null;
  }

  getAttributeNS(namespace: string | null, localName: string): string | null {
    const hit = this.attributes.find(({ name }) => {
      const colon = name.indexOf(":");
      return colon > 0 && name.slice(colon + 1) === localName && this.scope.get(name.slice(0, colon)) === namespace;
    });
    return hit?.value ?? null;
  }

  getElementsByTagNameNS(namespace: string | null, localName: string): XmlElement[] {
    return selectDescendants(this.children, localName).filter((el) => namespace === "*" || el.namespaceURI === namespace);
  }

  get attributes(): Array<{ name: string; value: string }> {
    return [...this.rawAttributes.matchAll(ATTRIBUTE)].map(([, name = "", dq, sq]) => ({ name, value: decode(dq ?? sq ?? "") }));
  }

  getAttribute(name: string): string | null {
    let re = valueOf.get(name);
    if (!re) {
      re = new RegExp(`(?:^|\\s)${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
      valueOf.set(name, re);
    }
    const m = re.exec(this.rawAttributes);
    return m ? decode(m[1] ?? m[2] ?? "") : null;
  }

  get textContent(): string {
    return this.text + this.children.map((c) => c.textContent).join("");
  }

  /** Adds text content (entities decoded). */
  appendText(text: string): void {
    this.text += text;
  }

  append(child: XmlElement): void {
    if (this.children === NO_CHILDREN) this.children = [];
    this.children.push(child);
  }

  querySelectorAll(selector: string): XmlElement[] {
    return selectDescendants(this.children, selector);
  }

  querySelector(selector: string): XmlElement | null {
    return this.querySelectorAll(selector)[0] ?? null;
  }
}

/** Elements matching a descendant selector of local names ("a b"), in document order. */
function selectDescendants(roots: XmlElement[], selector: string): XmlElement[] {
  let scope = roots;
  let found: XmlElement[] = [];
  for (const tag of selector.trim().split(/\s+/)) {
    found = [];
    const seen = new Set<XmlElement>();
    const stack = [...scope].reverse();
    for (let el = stack.pop(); el !== undefined; el = stack.pop()) {
      if (el.localName === tag && !seen.has(el)) {
        seen.add(el);
        found.push(el);
      }
      for (let i = el.children.length - 1; i >= 0; i--) {
        const child = el.children[i];
        if (child) stack.push(child);
      }
    }
    scope = found.flatMap((el) => el.children);
  }
  return found;
}

/** The parsed document, answering queries from its root element down. */
export class XmlDocument {
  constructor(readonly documentElement: XmlElement) {}

  querySelectorAll(selector: string): XmlElement[] {
    return selectDescendants([this.documentElement], selector);
  }

  querySelector(selector: string): XmlElement | null {
    return this.querySelectorAll(selector)[0] ?? null;
  }
}

/** DOMParser's interface over the small DOM; throws on XML that is not well-formed. */
export class LightDomParser {
  parseFromString(xml: string): XmlDocument {
    const root = new XmlElement("#document", "", new Map([["xml", "http://www.w3.org/XML/1998/namespace"]]));
    const open: XmlElement[] = [root];
    let last = 0;
    for (const m of xml.matchAll(TOKEN)) {
      const top = open.at(-1) ?? root; // open never loses the root (a close tag for it throws)
      const between = xml.slice(last, m.index);
      if (between.trim()) top.appendText(decode(between));
      last = m.index + m[0].length;
      if (m[1] !== undefined) top.appendText(m[1]);
      else if (m[2] !== undefined) {
        if (open.length === 1 || top.nodeName !== m[2]) throw new Error(`malformed XML: </${m[2]}> closes <${top.nodeName}>`);
        open.pop();
      } else if (m[3] !== undefined) {
        const raw = m[4] ?? "";
        let scope = top.scope;
        if (raw.includes("xmlns")) {
          const declared = new Map(scope);
          for (const [, name = "", dq, sq] of raw.matchAll(ATTRIBUTE)) {
            if (name === "xmlns" || name.startsWith("xmlns:")) declared.set(name.slice(6), decode(dq ?? sq ?? ""));
          }
          scope = declared;
        }
        const el = new XmlElement(intern(m[3]), raw, scope);
        top.append(el);
        if (m[5] !== "/") open.push(el);
      }
    }
    const [documentElement, ...rest] = root.children;
    if (open.length !== 1 || !documentElement || rest.length > 0) throw new Error("malformed XML: not one closed root element");
    return new XmlDocument(documentElement);
  }
}
