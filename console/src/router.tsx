import { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/**
 * Six pages and one detail page need no router library: the path under /admin/ names the page,
 * history.pushState moves between them, and every navigation is announced by moving focus to
 * the new page's heading (app.tsx).
 */
export const BASE = '/admin';

export function currentPath(): string {
  const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : '/';
  return path === '' ? '/' : path;
}

const listeners = new Set<() => void>();

export function navigate(path: string): void {
  window.history.pushState(null, '', BASE + path);
  listeners.forEach((l) => l());
}

export function useLocation(): { path: string; search: URLSearchParams } {
  const [state, setState] = useState(() => ({ path: currentPath(), search: new URLSearchParams(window.location.search) }));
  useEffect(() => {
    const update = () => setState({ path: currentPath(), search: new URLSearchParams(window.location.search) });
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return state;
}

/** An ordinary link (middle-click and "open in new tab" work) that navigates in place when clicked plainly. */
export function Link(props: { to: string; children: ComponentChildren; class?: string; current?: boolean }) {
  return (
    <a
      href={BASE + props.to}
      class={props.class}
      aria-current={props.current ? 'page' : undefined}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(props.to);
      }}
    >
      {props.children}
    </a>
  );
}
