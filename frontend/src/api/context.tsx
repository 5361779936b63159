import { createContext, useContext, type ReactNode } from 'react';
import type { ApiClient } from './client';

const ApiContext = createContext<ApiClient | undefined>(undefined);

/** The embedded shell provides the client for its shop; tests provide their own. */
export function ApiProvider({ client, children }: { client: ApiClient; children: ReactNode }) {
  return <ApiContext.Provider value={client}>{children}</ApiContext.Provider>;
}

export function useApi(): ApiClient {
  const client = useContext(ApiContext);
  if (!client) throw new Error('useApi() needs an <ApiProvider> (the embedded shell gives one).');
  return client;
}

/** The client if a provider gives one (parts that also render alone, like the editor's inputs). */
export function useOptionalApi(): ApiClient | undefined {
  return useContext(ApiContext);
}
