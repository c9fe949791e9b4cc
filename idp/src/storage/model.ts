/**
 * Typed models over the storage contract. Records are JSON payloads to the store; a feature
 * declares the shape of its records once and reads them through `model<Shape>(storage, name)`,
 * so no route casts what `find` returns. This is the one place where stored JSON gets a type:
 * records are written only by this provider, and a migration (storage/migrations.ts) rewrites
 * any whose shape changes.
 */
import type { Adapter, ModelName, Storage } from './adapter.ts';

/** What the store adds to a record: when it was consumed (single-use records). */
export interface StoreMembers {
  /** Epoch seconds when consumed; set by the store, never by callers. */
  consumed?: number;
}

/** A record as the store returns it. */
export type Stored<T> = T & StoreMembers;

/** The storage contract for one record shape (see `Adapter` for what each operation promises). */
export interface Model<T extends object> {
  upsert(id: string, record: T, expiresIn?: number): Promise<void>;
  insertIfAbsent(id: string, record: T, expiresIn?: number): Promise<boolean>;
  find(id: string): Promise<Stored<T> | undefined>;
  findByUid(uid: string): Promise<Stored<T> | undefined>;
  listByUid(uid: string): Promise<Array<{ id: string; payload: Stored<T> }>>;
  consume(id: string): Promise<boolean>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
  list(limit?: number): Promise<Array<{ id: string; payload: Stored<T> }>>;
  rewriteAll(transform: (id: string, record: Stored<T>) => T | undefined): Promise<number>;
}

/** The model `name` of `storage`, whose records have the shape `T`. */
export function model<T extends object>(storage: Pick<Storage, 'adapter'>, name: ModelName): Model<T> {
  return typed<T>(storage.adapter(name));
}

/** An adapter seen as a model of `T` (for code that is handed an adapter). */
export function typed<T extends object>(adapter: Adapter): Model<T> {
  return adapter as unknown as Model<T>;
}
