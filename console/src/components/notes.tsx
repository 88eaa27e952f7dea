import { ComponentChildren } from 'preact';

/** A failure the person must read: announced at once by screen readers. */
export function ErrorNote(props: { children: ComponentChildren }) {
  return <p role="alert" class="note error">{props.children}</p>;
}

/** What just happened ("Partner disabled."): announced politely. */
export function StatusNote(props: { children: ComponentChildren }) {
  return <p role="status" class="note ok">{props.children}</p>;
}

export function Loading(props: { what: string }) {
  return <p class="muted" aria-live="polite">Loading {props.what}…</p>;
}

/** Something the person should know that is not a failure (a store this instance does not keep). */
export function InfoNote(props: { children: ComponentChildren }) {
  return <p class="note info">{props.children}</p>;
}
