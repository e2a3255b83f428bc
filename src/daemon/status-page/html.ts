/**
 * HTML that is safe by construction: `html` is a tagged template that escapes
 * every interpolated value unless it is itself `html` (or a list of them), so
 * a rule name, a comment or a reason can never become markup or script.
 */

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return (part as readonly Part[]).map(render).join('');
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  let out = strings[0] ?? '';
  parts.forEach((part, i) => {
    out += render(part) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}
