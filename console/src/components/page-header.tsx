import { ComponentChildren } from 'preact';

/** The page's one h1 (focused after each navigation, app.tsx) and its actions. */
export function PageHeader(props: { title: string; description?: string; children?: ComponentChildren }) {
  return (
    <header class="page-header">
      <div>
        <h1 tabIndex={-1}>{props.title}</h1>
        {props.description && <p class="muted">{props.description}</p>}
      </div>
      {props.children && <div class="actions">{props.children}</div>}
    </header>
  );
}
