/** Name, code and the start of the message: enough to diagnose, too little to carry a stored report into the log. */
export function describeFailure(error: unknown): object {
  if (!(error instanceof Error)) return { message: String(error).slice(0, 300) };
  return { type: error.name, code: (error as { code?: unknown }).code, message: error.message.slice(0, 300) };
}
