/**
 * The bench remembers: each run's figures beside a committed baseline for the
 * machine class it ran on (bench/baseline.json), each with its ratio, and a
 * regression flagged past a tolerance. Memory and API calls are steady
 * between runs; wall times are not, so only times against a floor measured in
 * the same run (× floor) are judged, and more loosely. `--check` exits
 * non-zero on a regression; `--update-baseline` rewrites this machine class's
 * figures, deliberately.
 */

/** What a figure measures, and so how far it may move before it is a regression. */
export type FigureKind = 'memory' | 'time-ratio' | 'calls';

export interface Figure {
  readonly name: string;
  readonly value: number;
  readonly kind: FigureKind;
}

/** How much worse than its baseline a figure may be: these machines are noisy. */
export const TOLERANCE: Readonly<Record<FigureKind, number>> = { memory: 0.1, 'time-ratio': 0.15, calls: 0 };

export interface BaselineEntry {
  /** The machine line of the run that made it. */
  readonly machine: string;
  readonly date: string;
  readonly figures: Readonly<Record<string, number>>;
}

/** By machine class, then mode (`quick`, `full`). */
export type Baseline = Readonly<Record<string, Readonly<Record<string, BaselineEntry>>>>;

export interface Compared {
  readonly figure: Figure;
  readonly baseline?: number;
  /** now / baseline. */
  readonly ratio?: number;
  readonly regression: boolean;
}

/**
 * The class a machine's figures compare within: the same CPU model, cores,
 * platform and Node.js line. The line, because V8 moves the figures on its
 * own: Node.js 24 grows the young generation to four times Node.js 20's bound,
 * and a daemon under the manifests' settings of the day held 324 MB on it
 * against 107 on Node.js 20.
 */
export function machineClass(machine: { readonly cpu: string; readonly cores: number; readonly platform: string; readonly node: string }): string {
  return `${machine.platform}, ${machine.cores} cores, ${machine.cpu}, Node ${nodeLine(machine.node)}`;
}

/** `v20.20.2` → `20`. */
const nodeLine = (version: string): string => /^v?(\d+)/.exec(version)?.[1] ?? version;

export function compare(figures: readonly Figure[], baseline: BaselineEntry | undefined): Compared[] {
  return figures.map((figure) => {
    const base = baseline?.figures[figure.name];
    if (base === undefined || base <= 0) return { figure, regression: false };
    const ratio = figure.value / base;
    return { figure, baseline: base, ratio, regression: ratio > 1 + TOLERANCE[figure.kind] + 1e-9 };
  });
}

export function updated(baseline: Baseline, machineClassName: string, mode: string, entry: BaselineEntry): Baseline {
  return { ...baseline, [machineClassName]: { ...(baseline[machineClassName] ?? {}), [mode]: entry } };
}

const UNIT: Readonly<Record<FigureKind, string>> = { memory: ' MB', 'time-ratio': '×', calls: '' };

/** The comparison as a table's rows: figure, now, baseline, ratio, verdict. */
export function comparisonRows(compared: readonly Compared[]): string[][] {
  const show = (kind: FigureKind, value: number) => `${kind === 'time-ratio' ? value.toFixed(2) : Math.round(value)}${UNIT[kind]}`;
  return compared.map(({ figure, baseline, ratio, regression }) => [
    figure.name,
    show(figure.kind, figure.value),
    baseline === undefined ? '(none)' : show(figure.kind, baseline),
    ratio === undefined ? '' : `${ratio.toFixed(2)}`,
    baseline === undefined ? 'new' : regression ? `REGRESSION (> +${Math.round(TOLERANCE[figure.kind] * 100)}%)` : 'ok',
  ]);
}
