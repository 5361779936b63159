import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbort, useApi, type RequestOptions } from '../api';

export interface Loaded<T> {
  data: T | undefined;
  loading: boolean;
  error: unknown;
  /** Load again (after a change, or from the error state's Retry). */
  reload(): Promise<void>;
  /** Replace the data locally (e.g. append a created item) without a request. */
  setData(update: (current: T | undefined) => T | undefined): void;
}

/**
 * Loads data for a screen on mount and on `reload()`. A load started later wins;
 * an unmounted screen never sets state. `load` receives an AbortSignal to pass
 * to the api client.
 */
export function useLoader<T>(load: (signal: AbortSignal) => Promise<T>): Loaded<T> {
  const [data, setDataState] = useState<T | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(undefined);
  const current = useRef<AbortController | undefined>(undefined);
  const loadRef = useRef(load);
  loadRef.current = load;

  const reload = useCallback(async () => {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    setLoading(true);
    setError(undefined);
    try {
      const result = await loadRef.current(controller.signal);
      if (controller.signal.aborted) return;
      setDataState(result);
    } catch (err) {
      if (controller.signal.aborted || isAbort(err)) return;
      setError(err);
    } finally {
      if (!controller.signal.aborted) setLoading(false);
    }
  }, []);

  useEffect(() => {
    void reload();
    return () => current.current?.abort();
  }, [reload]);

  const setData = useCallback((update: (c: T | undefined) => T | undefined) => {
    setDataState(update);
  }, []);

  return { data, loading, error, reload, setData };
}

/**
 * useLoader of one GET of the gateway: `pick` takes the part of the reply a screen
 * lists (its data is then that part), `query` its query parameters.
 */
export function useGet<R, T = R>(
  path: string,
  options: { query?: RequestOptions['query']; pick?: (reply: R) => T } = {},
): Loaded<T> {
  const api = useApi();
  const { query, pick } = options;
  return useLoader(async (signal) => {
    const reply = await api.get<R>(path, { query, signal });
    return pick ? pick(reply) : (reply as unknown as T);
  });
}
