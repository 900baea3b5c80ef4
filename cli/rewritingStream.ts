// A writable stream whose every text write (string or bytes, through write and end) is rewritten
// before it reaches the real stream; everything else (isTTY, columns, events) is the real stream's.
// The terminal sanitiser and the secret mask both wrap stdout and stderr with it.

export function rewritingStream(inner: NodeJS.WritableStream, rewrite: (text: string) => string): NodeJS.WritableStream {
  const rewritten = (chunk: unknown): unknown => {
    if (typeof chunk === 'string') return rewrite(chunk);
    if (chunk instanceof Uint8Array) return rewrite(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8'));
    return chunk;
  };
  const write = (chunk: unknown, ...rest: unknown[]): boolean => (inner.write as (...args: unknown[]) => boolean)(rewritten(chunk), ...rest);
  const end = (chunk?: unknown, ...rest: unknown[]): unknown =>
    typeof chunk === 'function' || chunk === undefined ? (inner.end as (...args: unknown[]) => unknown)(chunk, ...rest) : (inner.end as (...args: unknown[]) => unknown)(rewritten(chunk), ...rest);
  return new Proxy(inner, {
    get(target, prop) {
      if (prop === 'write') return write;
      if (prop === 'end') return end;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
