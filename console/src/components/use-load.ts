import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/client';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  /** The admin API's HTTP status when it refused (e.g. 503: a store this instance does not have). */
  status: number | undefined;
  loading: boolean;
  reload: () => void;
}

/** One admin API read for a page: its data, its failure as text, and a way to read it again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string; status?: number; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (e: unknown) => live && setState({ error: e instanceof Error ? e.message : String(e), status: e instanceof ApiError ? e.status : undefined, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, round]);
  return { data: state.data, error: state.error, status: state.status, loading: state.loading, reload };
}
