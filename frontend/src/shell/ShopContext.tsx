import { createContext, useContext } from 'react';
import type { ShopContext } from './environment';

export const ShopContextValue = createContext<ShopContext | undefined>(undefined);

/** The shop and host the embedded shell resolved (only inside the shell). */
export function useShop(): ShopContext {
  const value = useContext(ShopContextValue);
  if (!value) throw new Error('useShop() is only available inside the embedded shell.');
  return value;
}
