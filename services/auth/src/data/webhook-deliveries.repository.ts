import { isDuplicateKey, MongoStore } from '@ratesmith/kit';
import { Schema, type Connection } from 'mongoose';

/** How long a delivery id is remembered; Shopify retries a webhook for about 4 hours. */
export const WEBHOOK_ID_RETENTION_SECONDS = 48 * 3600;
/** A claim not completed within this is taken over: its holder died mid-way. */
const CLAIM_LEASE_MS = 60_000;

interface DeliveryDoc {
  webhook_id: string;
  topic: string;
  received_at: Date;
  /** False while the work runs; records from before this field were done. */
  done?: boolean;
}

const deliverySchema = new Schema<DeliveryDoc>(
  {
    webhook_id: { type: String, required: true },
    topic: { type: String, required: true },
    received_at: { type: Date, required: true },
    done: { type: Boolean },
  },
  { collection: 'webhook_deliveries' },
);
deliverySchema.index({ webhook_id: 1 }, { unique: true });

/**
 * X-Shopify-Webhook-Id values already acted on: a redelivery, or a captured
 * webhook replayed later, is acknowledged and does nothing. The unique index
 * lets exactly one of two concurrent deliveries claim an id. No shop is
 * stored: after shop/redact nothing here names the shop.
 */
export class WebhookDeliveriesRepository extends MongoStore<DeliveryDoc> {
  constructor(conn: Connection) {
    super(conn.model<DeliveryDoc>('WebhookDelivery', deliverySchema), {
      field: 'received_at',
      seconds: WEBHOOK_ID_RETENTION_SECONDS,
    });
  }

  /**
   * `claimed` for the first claim of the id (or one taking over a claim whose
   * holder died), `done` when it was acted on before, `in_progress` while
   * another delivery of it is being acted on: that one may still fail, so
   * this one must not be acknowledged as done.
   */
  async claim(webhookId: string, topic: string): Promise<'claimed' | 'done' | 'in_progress'> {
    try {
      await this.model.create({
        webhook_id: webhookId,
        topic,
        received_at: new Date(),
        done: false,
      });
      return 'claimed';
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const taken = await this.model.updateOne(
      {
        webhook_id: webhookId,
        done: false,
        received_at: { $lt: new Date(Date.now() - CLAIM_LEASE_MS) },
      },
      { $set: { received_at: new Date() } },
    );
    if (taken.modifiedCount === 1) return 'claimed';
    const existing = await this.model.findOne({ webhook_id: webhookId }).lean();
    return existing?.done === false ? 'in_progress' : 'done';
  }

  /** The work for the id is done: later deliveries of it are acknowledged and do nothing. */
  async complete(webhookId: string): Promise<void> {
    await this.model.updateOne({ webhook_id: webhookId }, { $set: { done: true } });
  }

  /** The work for the id failed: Shopify's retry of it must run it again. */
  async release(webhookId: string): Promise<void> {
    await this.model.deleteOne({ webhook_id: webhookId });
  }
}
