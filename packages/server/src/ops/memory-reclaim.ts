import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How much of Node's `arrayBuffers` memory an idle intake may keep before a collection is asked for. */
const IDLE_ARRAY_BUFFER_BYTES = 64 * 1024 * 1024;
/** How often the intake is looked at. */
const CHECK_INTERVAL_MS = 2000;
/** When the second collection runs: the first frees the Buffers, the second finishes giving their memory back. */
const SECOND_COLLECTION_AFTER_MS = 500;

/**
 * Gives the memory of request bodies back once the intake is idle. V8 frees a Buffer's memory only when a garbage
 * collection finds its object dead, and collections are driven by allocation: after a burst of large uploads
 * the process goes quiet with hundreds of megabytes of dead bodies it never collects. So, whenever no body is
 * held and Buffers still take more than 64 MiB, a full collection is run (and a second one shortly after, which
 * V8 needs to hand the freed memory back). Under load V8's own heuristics
 * (which count Buffer memory) keep collecting; this only ends the quiet after a burst.
 */
export function reclaimMemoryWhenIdle(bodyBytesInFlight: () => number): { stop(): void } {
  const collect = fullCollection();
  const timer = setInterval(() => {
    if (bodyBytesInFlight() > 0 || process.memoryUsage().arrayBuffers <= IDLE_ARRAY_BUFFER_BYTES) return;
    collect();
    second = setTimeout(collect, SECOND_COLLECTION_AFTER_MS).unref();
  }, CHECK_INTERVAL_MS).unref();
  let second: NodeJS.Timeout | undefined;
  return {
    stop: () => {
      clearInterval(timer);
      clearTimeout(second);
    },
  };
}

/** V8's `gc()`, which Node hides unless started with `--expose-gc`: exposed at run time instead, for this one use. */
function fullCollection(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
