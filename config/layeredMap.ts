// A read-only view of two maps, the inner one shadowing the outer: a mission's own agents over the
// global ones. Building a scope this way costs the inner map's size, not a copy of every global
// name per mission (which made a config of many missions and many agents load in quadratic time).

export class LayeredMap<K, V> implements ReadonlyMap<K, V> {
  constructor(
    private readonly inner: ReadonlyMap<K, V>,
    private readonly outer: ReadonlyMap<K, V>,
  ) {}

  get(key: K): V | undefined {
    return this.inner.has(key) ? this.inner.get(key) : this.outer.get(key);
  }

  has(key: K): boolean {
    return this.inner.has(key) || this.outer.has(key);
  }

  get size(): number {
    let n = this.inner.size;
    for (const k of this.outer.keys()) if (!this.inner.has(k)) n++;
    return n;
  }

  *entries(): MapIterator<[K, V]> {
    for (const [k, v] of this.outer) yield [k, this.inner.has(k) ? this.inner.get(k)! : v];
    for (const [k, v] of this.inner) if (!this.outer.has(k)) yield [k, v];
  }

  *keys(): MapIterator<K> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): MapIterator<V> {
    for (const [, v] of this.entries()) yield v;
  }

  forEach(cb: (value: V, key: K, map: ReadonlyMap<K, V>) => void): void {
    for (const [k, v] of this.entries()) cb(v, k, this);
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
}
