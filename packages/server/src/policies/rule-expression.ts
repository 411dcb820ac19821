import { Environment } from '@marcbachmann/cel-js';
import type { RuleStatus } from '../generated/types.gen.js';
import { instrument, RuleBudget, withinBudget } from './rule-budget.js';

/**
 * Compliance rules are CEL expressions (Common Expression Language: no loops, no side effects, no access to
 * anything but the variables given), evaluated by cel-js. The shape of the expression is checked when a rule is
 * saved: at most {@link MAX_NODES} nodes, no comprehension inside another, and no `matches`, because cel-js runs it
 * with JavaScript's backtracking regular expressions, which can take exponential time on a hostile report's text.
 * The shape does not bound the cost (string and list building multiplies), so every evaluation also runs under a
 * budget of time and of what it may build (`rule-budget.ts`), in a worker thread (`rule-runner.ts`).
 */
const MAX_NODES = 200;
const MAX_DEPTH = 40;
/** Macros that loop over a list or map. */
const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);
const FORBIDDEN_FUNCTIONS = new Map([['matches', 'matches() is not allowed: use contains(), startsWith() or endsWith()']]);
/** Comparison operators whose left side is "the value the rule looked at". */
const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>=', 'in']);
/** Longest `value` kept with a result. */
const MAX_VALUE_TEXT = 200;

const environment = new Environment({ limits: { maxAstNodes: MAX_NODES, maxDepth: MAX_DEPTH } })
  .registerVariable('summary', 'map')
  .registerVariable('report', 'map')
  .registerVariable('host', 'map')
  .registerVariable('now', 'google.protobuf.Timestamp');

/** Why an expression cannot be saved, and where (0 is its first character; null when unknown). */
export interface ExpressionError {
  position: number | null;
  message: string;
}

/** A checked rule, ready to evaluate. */
export interface CompiledRule {
  /** Evaluates the whole expression. */
  evaluate(variables: RuleVariables): unknown;
  /** Evaluates the left side of a top-level comparison, the value shown with the result; absent for other rules. */
  observe?: (variables: RuleVariables) => unknown;
  /** Whether the rule reads `now`, so that its result can change with time alone. */
  readsNow: boolean;
}

/** What a rule sees (see `rule-variables.ts`). */
export interface RuleVariables {
  summary: unknown;
  report: unknown;
  host: unknown;
  now: Date;
}

/** One rule's outcome on one host. */
export interface RuleOutcome {
  /** A status before waivers. */
  status: Exclude<RuleStatus, 'waived'>;
  /** The observed value in CEL notation, when the rule is a comparison and its left side evaluated. */
  value: string | null;
  /** Why the status is `error`. */
  message: string | null;
  /** Which budget the rule exceeded, when it did. */
  overrun?: 'time' | 'size';
}

/** Checks a rule's expression: a {@link CompiledRule}, or the first error found. */
export function compileRule(expression: string): CompiledRule | ExpressionError {
  let parsed: ReturnType<typeof environment.parse>;
  try {
    parsed = environment.parse(expression);
  } catch (error) {
    return expressionErrorOf(error);
  }
  const shapeError = shapeErrorOf(parsed.ast);
  if (shapeError) return shapeError;
  const checked = parsed.check();
  if (!checked.valid) return expressionErrorOf(checked.error);
  const type = String(checked.type);
  if (type !== 'bool' && type !== 'dyn') return { position: 0, message: `the expression gives ${type}, not bool` };
  const root = parsed.ast as AstNode;
  const left = COMPARISONS.has(root.op) ? leftOperand(root) : undefined;
  const observe = left ? environment.parse(expression.slice(left.start, left.end)) : undefined;
  observe?.check();
  instrument(parsed.ast);
  if (observe) instrument(observe.ast);
  return {
    evaluate: evaluatorOf(parsed),
    observe: observe && evaluatorOf(observe),
    readsNow: readsVariable(root, 'now'),
  };
}

/** A parsed expression as a function of the rule's variables; cel-js types what it gives as `any`, it is any CEL value. */
function evaluatorOf(parsed: ReturnType<typeof environment.parse>): (variables: RuleVariables) => unknown {
  return (variables) => {
    const value: unknown = parsed(variables);
    return value;
  };
}

export const isExpressionError = (compiled: CompiledRule | ExpressionError): compiled is ExpressionError => 'message' in compiled;

/**
 * Evaluates a compiled rule under `budget` (shared by the observed value and the whole expression): `pass` when it
 * is true, `fail` when false, `error` when it fails, gives no boolean or exceeds the budget.
 */
export function evaluateRule(rule: CompiledRule, variables: RuleVariables, budget = new RuleBudget()): RuleOutcome {
  return withinBudget(budget, () => {
    let value: string | null = null;
    try {
      if (rule.observe) value = celText(rule.observe(variables));
    } catch {
      // The whole expression reports the error below.
    }
    let outcome: RuleOutcome;
    try {
      const result = rule.evaluate(variables);
      outcome =
        typeof result === 'boolean'
          ? { status: result ? 'pass' : 'fail', value, message: null }
          : { status: 'error', value, message: `the expression gave ${celText(result)}, not true or false` };
    } catch (error) {
      outcome = { status: 'error', value, message: firstLine(error) };
    }
    // An excess swallowed by `||`, `&&` or a quantifier still makes the result an error.
    const { exceeded } = budget;
    return exceeded ? { status: 'error', value: null, message: exceeded.message, overrun: exceeded.kind } : outcome;
  });
}

/** A node of cel-js' syntax tree, as far as these checks read it. */
interface AstNode {
  op: string;
  args: unknown;
  start: number;
  end: number;
}

const isNode = (value: unknown): value is AstNode => typeof value === 'object' && value !== null && typeof (value as AstNode).op === 'string';

/** The nodes directly below `node`, whatever shape its arguments have. */
function childrenOf(node: AstNode): AstNode[] {
  return listOf(node.args)
    .flatMap((arg) => listOf(arg))
    .filter(isNode);
}

/** `value` when it is a list, else a list of `value` alone. */
function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

/** The function a `call` (`size(x)`) or receiver call (`x.all(…)`) node names. */
function calledName(node: AstNode): string | undefined {
  if ((node.op === 'call' || node.op === 'rcall') && Array.isArray(node.args) && typeof node.args[0] === 'string') return node.args[0];
  return undefined;
}

function shapeErrorOf(node: AstNode, insideComprehension = false): ExpressionError | null {
  const name = calledName(node);
  const forbidden = name && FORBIDDEN_FUNCTIONS.get(name);
  if (forbidden) return { position: node.start, message: forbidden };
  const comprehension = name !== undefined && node.op === 'rcall' && COMPREHENSIONS.has(name);
  if (comprehension && insideComprehension)
    return { position: node.start, message: `${name}() inside another comprehension is not allowed (it could cost the square of a list's size)` };
  for (const child of childrenOf(node)) {
    const error = shapeErrorOf(child, insideComprehension || comprehension);
    if (error) return error;
  }
  return null;
}

function leftOperand(node: AstNode): AstNode | undefined {
  const [left] = childrenOf(node);
  return left;
}

function readsVariable(node: AstNode, variable: string): boolean {
  if (node.op === 'id') return node.args === variable;
  return childrenOf(node).some((child) => readsVariable(child, variable));
}

/** A cel-js error as a position and its message's first line (the rest draws the position in ASCII). */
function expressionErrorOf(error: unknown): ExpressionError {
  const node = (error as { node?: { start?: number; pos?: number } } | undefined)?.node;
  const position = node?.start ?? node?.pos ?? null;
  return { position: typeof position === 'number' ? position : null, message: firstLine(error) };
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.trim();
}

/** A value in CEL notation (`56`, `"1"`, `[…]`), at most {@link MAX_VALUE_TEXT} characters. */
export function celText(value: unknown): string {
  const text = celNotation(value, 0);
  return text.length > MAX_VALUE_TEXT ? `${text.slice(0, MAX_VALUE_TEXT - 1)}…` : text;
}

function celNotation(value: unknown, depth: number): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return `timestamp("${value.toISOString()}")`;
  if (depth > 2) return '…';
  if (Array.isArray(value))
    return `[${value
      .slice(0, 20)
      .map((item) => celNotation(item, depth + 1))
      .join(', ')}${value.length > 20 ? ', …' : ''}]`;
  if (value instanceof Map)
    return `{${[...value]
      .slice(0, 20)
      .map(([k, v]) => `${celNotation(k, depth + 1)}: ${celNotation(v, depth + 1)}`)
      .join(', ')}}`;
  if (isDuration(value)) return `duration("${value.toString()}")`;
  if (typeof value === 'object')
    return `{${Object.entries(value)
      .slice(0, 20)
      .map(([k, v]) => `${JSON.stringify(k)}: ${celNotation(v, depth + 1)}`)
      .join(', ')}}`;
  // CEL values are never functions or symbols.
  return `<${typeof value}>`;
}

/** cel-js' Duration (not exported by it), which prints itself as CEL writes durations (`90s`). */
interface CelDuration {
  readonly seconds: bigint;
  readonly nanos: number;
  toString(): string;
}

const isDuration = (value: unknown): value is CelDuration => typeof value === 'object' && value !== null && value.constructor?.name === 'Duration';
