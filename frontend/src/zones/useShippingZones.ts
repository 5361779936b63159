import { useCallback, useState } from 'react';
import { messageOf, useApi, type ShippingZonesReply, type ShippingZonesUpdate } from '../api';
import { useGet, type Loaded } from '../components/useLoader';
import { useToast } from '../toast';

export interface ShippingZones {
  loaded: Loaded<ShippingZonesReply>;
  /** What the running update is for (a zone id, a profile id, "proposal"…), for its button's spinner. */
  busy: string | undefined;
  /**
   * Adds Ratesmith to the zones (or takes it out), shows the reply's message
   * (else `done`) or the error as a toast, and resolves whether it worked.
   * An empty `zone_ids` only records that the merchant answered the proposal.
   */
  update(
    change: ShippingZonesUpdate,
    texts: { busy: string; done: string; failed: string },
  ): Promise<boolean>;
}

/** GET /api/shipping-zones once, and POST /api/shipping-zones with the reply kept as the new state. */
export function useShippingZones(): ShippingZones {
  const api = useApi();
  const toast = useToast();
  const loaded = useGet<ShippingZonesReply>('/api/shipping-zones');
  const [busy, setBusy] = useState<string | undefined>(undefined);
  const { setData } = loaded;

  const update = useCallback<ShippingZones['update']>(
    async (change, texts) => {
      setBusy(texts.busy);
      try {
        const reply = await api.post<ShippingZonesReply>('/api/shipping-zones', change);
        setData(() => reply);
        toast.success(reply.message || texts.done);
        return true;
      } catch (err) {
        toast.error(messageOf(err, texts.failed));
        return false;
      } finally {
        setBusy(undefined);
      }
    },
    [api, setData, toast],
  );

  return { loaded, busy, update };
}
