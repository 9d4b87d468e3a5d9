// One launch's way through ltijs, from the guard that checked it (web/lti-guard.ts) to the handler that records it
// (launch.ts), held in an async context since ltijs calls our storage plugin and handlers without passing anything
// of ours along. It carries what the guard found (the platform's key, the stored state) and collects what ltijs
// writes for the launch (its nonce, the session's id and context tokens), so that the launch's writes are one
// statement: the state used up, the nonce recorded once, the session, the person and the course, all or nothing.
// A replayed nonce or a state another launch used meanwhile then writes nothing at all.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Jwk } from './jwk.js';

/** A row of ltijs's storage as the launch will write it. */
export interface LaunchRecord {
  collection: string;
  recordKey: string;
  doc: Record<string, unknown>;
  /** Seconds until it expires; null: never. */
  ttlSeconds: number | null;
}

/** The OIDC state the launch came back with, as the tool stored it at login. */
export interface StoredState {
  state: string;
  issuer: string;
  /** ltijs's own record of the state (the target link's query parameters), when the login made one. */
  ltijsRecord: Record<string, unknown> | null;
}

export interface LaunchPassage {
  issuer: string;
  clientId: string;
  jwksUrl: string;
  /** The platform's key for the token's kid, fetched by the guard under a deadline (platform-keys.ts). */
  key: Jwk;
  state: StoredState;
}

interface Scope extends LaunchPassage {
  nonce: LaunchRecord | null;
  records: LaunchRecord[];
}

const scope = new AsyncLocalStorage<Scope>();

/** Runs the rest of a launch's handling (ltijs's validation, then our handler) in the launch's scope. */
export function withLaunch<T>(passage: LaunchPassage, work: () => T): T {
  return scope.run({ ...passage, nonce: null, records: [] }, work);
}

/** The launch being handled, when the caller runs inside one. */
export function currentLaunch(): Readonly<LaunchPassage> | undefined {
  return scope.getStore();
}

/** Keeps the launch's nonce for the launch's one write; false outside a launch. */
export function deferNonce(record: LaunchRecord): boolean {
  const current = scope.getStore();
  if (!current) return false;
  current.nonce = record;
  return true;
}

/** Keeps a session record for the launch's one write; false outside a launch. */
export function deferSessionRecord(record: LaunchRecord): boolean {
  const current = scope.getStore();
  if (!current) return false;
  current.records = [
    ...current.records.filter((kept) => kept.collection !== record.collection || kept.recordKey !== record.recordKey),
    record,
  ];
  return true;
}

/**
 * Adds fields to the session's context record the launch will write (what ltijs did not keep of the token); false
 * outside a launch or before ltijs made the record.
 */
export function extendLaunchContext(fields: Record<string, unknown>): boolean {
  const current = scope.getStore();
  const record = current?.records.find((kept) => kept.collection === 'contexttoken');
  if (!record) return false;
  record.doc = { ...record.doc, ...fields };
  return true;
}

/** What the launch's one write needs: its state, its nonce and the session's records. */
export function launchWrites(): { state: StoredState; nonce: LaunchRecord | null; records: LaunchRecord[] } | null {
  const current = scope.getStore();
  return current ? { state: current.state, nonce: current.nonce, records: current.records } : null;
}
