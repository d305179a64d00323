/**
 * Prepaid answer packs: the two offers, starting a checkout (an order row plus a hosted
 * checkout session), and crediting a paid order exactly once.
 */
import type { Database } from '../../platform/db.ts';
import { addPackCredits } from './allowance.ts';
import { PaymentError } from './payment.ts';
import type { CheckoutSession, PaidCheckout, PaymentProvider } from './payment.ts';

/** A prepaid pack offer: answers, price and the checkout line label. */
export interface PackOffer {
  id: string;
  answers: number;
  amountCents: number;
  currency: 'USD';
  label: string;
}

/** The spec's packs: 100 answers for $15, 500 for $60. Selected by the body field `pack`. */
export const PACKS: Record<string, PackOffer> = {
  answers_100: { id: 'answers_100', answers: 100, amountCents: 1_500, currency: 'USD', label: 'drugref AI answers: 100-answer pack' },
  answers_500: { id: 'answers_500', answers: 500, amountCents: 6_000, currency: 'USD', label: 'drugref AI answers: 500-answer pack' },
};

/** The order id and the hosted checkout the buyer is sent to. */
export interface StartedCheckout {
  orderId: string;
  session: CheckoutSession;
}

/** PostgreSQL's unique_violation SQLSTATE. */
const UNIQUE_VIOLATION = '23505';

/** Records a pending order, then opens the hosted checkout for it; a failed opening leaves no order behind. */
export async function startCheckout(
  db: Database,
  payments: PaymentProvider,
  input: { accountId: string; pack: PackOffer; successUrl: string; cancelUrl: string },
): Promise<StartedCheckout> {
  const { pack } = input;
  const created = await db.transaction((tx) => tx.query<{ id: string }>(
    `INSERT INTO chat_pack_orders (account_id, pack, answers, amount_cents, currency, provider)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [input.accountId, pack.id, pack.answers, pack.amountCents, pack.currency, payments.name],
  ));
  const orderId = created.rows[0]!.id;
  try {
    const session = await payments.createCheckout({
      orderId, accountId: input.accountId, label: pack.label, amountCents: pack.amountCents, currency: pack.currency,
      successUrl: input.successUrl, cancelUrl: input.cancelUrl,
    });
    await db.transaction((tx) => tx.query('UPDATE chat_pack_orders SET session_id = $2 WHERE id = $1', [orderId, session.sessionId]));
    return { orderId, session };
  } catch (err) {
    // No checkout was opened for this order: it is removed, so a retry records one order, not two.
    await db.query("DELETE FROM chat_pack_orders WHERE id = $1 AND status = 'pending'", [orderId]);
    // A provider repeating a session id another order holds is the provider's fault: 502, never 500.
    if ((err as { code?: string }).code === UNIQUE_VIOLATION) throw new PaymentError('the provider answered a session id another order already holds');
    throw err;
  }
}

/**
 * Credits a paid checkout. The pending → paid update is conditional, so only the first of
 * any number of repeated callbacks finds the row and credits; the rest change nothing.
 */
export async function creditPaidCheckout(db: Database, paid: PaidCheckout): Promise<{ credited: boolean; answers: number }> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ account_id: string; answers: number }>(
      `UPDATE chat_pack_orders SET status = 'paid', paid_at = now(), event_id = $2
        WHERE session_id = $1 AND status = 'pending' AND ($3::uuid IS NULL OR id = $3::uuid)
        RETURNING account_id, answers`,
      [paid.sessionId, paid.eventId, isUuid(paid.orderId) ? paid.orderId : null],
    );
    const row = rows[0];
    if (!row) return { credited: false, answers: 0 };
    await addPackCredits(tx, row.account_id, row.answers);
    return { credited: true, answers: row.answers };
  });
}

function isUuid(value: string | null): value is string {
  return value !== null && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
