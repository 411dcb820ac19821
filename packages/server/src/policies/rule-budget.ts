/**
 * What one rule may spend on one host. The shape checks of `rule-expression.ts` do not bound the cost of a rule:
 * `split`, `join` and `+` build strings and lists whose size multiplies at each step, so a rule of a few hundred
 * characters can build gigabytes or run for minutes. Each evaluation therefore gets a budget, enforced inside it:
 * every string and list the rule builds is measured as it is built (a `join` before it is built), and the clock is
 * read every few hundred steps. The worker's heap limit and the evaluator's watchdog (`rule-runner.ts`) stay as
 * the last resort for whatever a single step could still do.
 */
export const RULE_BUDGET = {
  /** Wall-clock time of one rule on one host. */
  timeMs: 200,
  /** Wall-clock time of all the rules of every policy on one host. */
  hostTimeMs: 1000,
  /** Longest string a rule may build (`+`, `join`, conversions); strings of the report itself are not counted. */
  stringCharacters: 100_000,
  /** Longest list a rule may build (`split`, `map`, `filter`, list `+`). */
  listElements: 100_000,
  /** Characters of every string built in one evaluation, together. */
  totalCharacters: 10_000_000,
  /** Elements of every list built in one evaluation, together. */
  totalElements: 1_000_000,
} as const;

/** Budget limits, {@link RULE_BUDGET} unless a test or the save-time check says otherwise. */
export type RuleBudgetLimits = { -readonly [K in keyof typeof RULE_BUDGET]: number };

/** A rule went over its budget: `time` for the clock, `size` for what it built. */
export class BudgetExceededError extends Error {
  override name = 'BudgetExceededError';
  constructor(
    readonly kind: 'time' | 'size',
    message: string,
  ) {
    super(message);
  }
}

/** Node evaluations between two readings of the clock. */
const CLOCK_EVERY = 256;

/** One evaluation's spending; once exceeded, every further step fails at once (cel-js' quantifiers go on after an error). */
export class RuleBudget {
  private steps = 0;
  private characters = 0;
  private elements = 0;
  private readonly deadline: number;
  /** The first excess, kept so that the whole evaluation ends as an error whatever swallowed it. */
  exceeded: BudgetExceededError | undefined;

  constructor(
    readonly limits: RuleBudgetLimits = RULE_BUDGET,
    timeMs = limits.timeMs,
  ) {
    this.deadline = performance.now() + timeMs;
    this.timeMs = timeMs;
  }

  private readonly timeMs: number;

  /** Counts a step; fails when the budget is already exceeded or the deadline has passed. */
  step(): void {
    if (this.exceeded) throw this.exceeded;
    if (++this.steps % CLOCK_EVERY === 0 && performance.now() > this.deadline) {
      this.fail('time', `the rule exceeded its time budget of ${this.timeMs} ms`);
    }
  }

  /** Counts a value the rule built: a string's characters, a list's elements. */
  built(value: unknown): void {
    if (typeof value === 'string' || value instanceof Uint8Array) this.characters += this.checkString(value.length);
    else if (Array.isArray(value)) {
      if (value.length > this.limits.listElements) this.fail('size', `the rule built a list longer than ${this.limits.listElements} elements`);
      this.elements += value.length;
      if (this.elements > this.limits.totalElements) this.fail('size', `the rule built more than ${this.limits.totalElements} list elements in all`);
    }
  }

  /** Checks, before a `join` runs, the length of the string it would build. */
  joining(list: unknown, separator: unknown): void {
    if (!Array.isArray(list)) return;
    const gap = typeof separator === 'string' ? separator.length : 0;
    let length = Math.max(0, list.length - 1) * gap;
    for (const item of list) length += typeof item === 'string' ? item.length : 0;
    this.checkString(length);
  }

  private checkString(length: number): number {
    if (length > this.limits.stringCharacters) this.fail('size', `the rule built a string longer than ${this.limits.stringCharacters} characters`);
    if (this.characters + length > this.limits.totalCharacters) this.fail('size', `the rule built more than ${this.limits.totalCharacters} characters in all`);
    return length;
  }

  private fail(kind: 'time' | 'size', message: string): never {
    this.exceeded = new BudgetExceededError(kind, message);
    throw this.exceeded;
  }
}

/** The budget of the evaluation running now (evaluations are synchronous, one at a time per thread). */
let current: RuleBudget | undefined;

/** Runs `evaluate` under `budget`. */
export function withinBudget<T>(budget: RuleBudget, evaluate: () => T): T {
  const outer = current;
  current = budget;
  try {
    return evaluate();
  } finally {
    current = outer;
  }
}

/** A node of cel-js' syntax tree after its type check, as far as the instrumentation touches it (cel-js 8.0). */
interface CheckedNode {
  op: string;
  args: unknown;
  meta: { evaluate?: Evaluate; alternate?: unknown; macro?: unknown };
  setMeta(key: 'evaluate', value: Evaluate): unknown;
  handle?: (...args: unknown[]) => unknown;
}
type Evaluate = (ev: unknown, ast: unknown, ctx: unknown) => unknown;

/** Operations whose result is a new string or list. */
const BUILDING = new Set(['+', 'call', 'rcall', 'comprehension', 'list']);

const isCheckedNode = (value: unknown): value is CheckedNode =>
  typeof value === 'object' && value !== null && typeof (value as CheckedNode).op === 'string' && typeof (value as CheckedNode).setMeta === 'function';

/**
 * Makes every node of a checked syntax tree count its step against the current budget, and every node that builds
 * a value measure it. Relies on cel-js 8.0's tree (pinned in package.json; `rule-expression.test.ts` fails if an
 * upgrade changes it): a node evaluates through `meta.evaluate` unless it stands for another (`alternate`, `macro`).
 */
export function instrument(root: unknown): void {
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isCheckedNode(value)) {
      // A comprehension's arguments (iterable, init, step) are an object of nodes.
      if (Object.getPrototypeOf(value) === Object.prototype) Object.values(value).forEach(visit);
      return;
    }
    const { meta } = value;
    if (meta.alternate || meta.macro) {
      visit(meta.alternate);
      visit(meta.macro);
    } else if (meta.evaluate) {
      value.setMeta('evaluate', measured(value, meta.evaluate));
    }
    if (value.op === 'rcall' && Array.isArray(value.args) && value.args[0] === 'join' && value.handle) value.handle = joinChecked(value.handle);
    visit(value.args);
  };
  visit(root);
}

function measured(node: CheckedNode, evaluate: Evaluate): Evaluate {
  if (!BUILDING.has(node.op)) {
    return (ev, ast, ctx) => {
      current?.step();
      return evaluate(ev, ast, ctx);
    };
  }
  return (ev, ast, ctx) => {
    current?.step();
    const value = evaluate(ev, ast, ctx);
    current?.built(value);
    return value;
  };
}

/** A receiver call's handler (`[receiver, ...args]` first) checking the joined length first. */
function joinChecked(handle: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown {
  return (args, ...rest) => {
    const [list, separator] = args as unknown[];
    current?.joining(list, separator);
    return handle(args, ...rest);
  };
}
