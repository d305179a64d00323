/**
 * Swiss reimbursement pre-validation (stateless, no personal data): whether a pack is on the
 * Spezialitätenliste (SL), its capped public price, limitation conditions and points, the
 * co-insurance share (Selbstbehalt, 10 % or 40 % as the SL entry states), the medical-aid
 * (LiMA / MiGeL) path, and cheaper substitutes in the same ATC code and pack size.
 */
import { validationError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import type { DrugReference } from '../interactions/references.ts';
import { metaFor } from '../sources/status.ts';
import { cheaperSubstitutes, findSlPack } from './sl-packs.ts';
import type { SlPack } from './sl-packs.ts';

/** KVG Art. 64 para. 2: the ordinary co-insurance share when an SL entry states none. */
export const DEFAULT_COINSURANCE = 10;
export const MAX_QUANTITY = 100;

const LIMA_NOTE = 'The LiMA (Liste der Mittel und Gegenstände, MiGeL) reimburses medical aids and appliances, not medicinal products.';
const OFF_LABEL_RULE = 'Art. 71a–71d KVV: the insurer may cover case by case after prior cost approval on the advice of its medical officer.';

function chf(value: number): number {
  return Math.round(value * 100) / 100;
}

function coinsuranceOf(pack: SlPack): { percent: number; basis: 'sl_entry' | 'default' } {
  const stated = pack.sl?.coinsurance_percent;
  return stated === 10 || stated === 40 ? { percent: stated, basis: 'sl_entry' } : { percent: DEFAULT_COINSURANCE, basis: 'default' };
}

function packView(pack: SlPack) {
  return {
    id: pack.id, description: pack.description, units: pack.units, unit: pack.unit, productId: pack.productId, productName: pack.productName,
    atcCode: pack.atcCode, generic: pack.generic, strength: pack.strengthValue === null ? null : `${pack.strengthValue} ${pack.strengthUnit ?? ''}`.trim(),
    slFlag: pack.sl?.flag ?? null,
  };
}

function checkQuantity(quantity: number): number {
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY) {
    throw validationError(`Invalid request: quantity must be an integer from 1 to ${MAX_QUANTITY}.`, [{ location: 'body', field: 'quantity', message: 'is out of range' }]);
  }
  return quantity;
}

/** A medicinal product has an ATC code or active ingredients; anything else may be a medical aid. */
function limaPath(pack: SlPack, listed: boolean) {
  const medicinal = pack.atcCode !== null || pack.ingredientCount > 0;
  if (listed) return { applicable: false, reason: `Listed on the SL: reimbursed as a medicinal product. ${LIMA_NOTE}` };
  if (medicinal) return { applicable: false, reason: `A medicinal product not on the SL is not reimbursed through the LiMA. ${LIMA_NOTE}` };
  return { applicable: true, reason: 'Not a medicinal product: reimbursement is decided by its LiMA (MiGeL) position, not by the SL.' };
}

/**
 * The addressed Swiss pack, or a 422: the spec gives these endpoints no 404, and a code that
 * names no Swiss pack is a request the service cannot act on.
 */
async function requirePack(ctx: RequestContext, ref: DrugReference): Promise<SlPack> {
  const pack = await findSlPack(ctx.db, ref);
  if (pack) return pack;
  throw validationError('Invalid request: no pack of the Swiss catalogue has this code.', [{ location: 'body', field: 'pack', message: 'is not a known Swiss pack' }]);
}

/** POST /v1/ch/claims/validate. */
export async function validateClaim(ctx: RequestContext, ref: DrugReference, quantity = 1) {
  const qty = checkQuantity(quantity);
  const pack = await requirePack(ctx, ref);
  const listed = pack.sl?.listed === true;
  const price = listed ? pack.sl?.public_price ?? null : null;
  const limitation = pack.sl?.limitation ?? null;
  const co = coinsuranceOf(pack);
  return {
    pack: packView(pack),
    listed,
    status: !listed ? 'not_listed' : limitation ? 'reimbursable_with_limitation' : 'reimbursable',
    quantity: qty,
    publicPriceChf: price,
    exFactoryPriceChf: listed ? pack.sl?.ex_factory_price ?? null : null,
    totalPublicPriceChf: price === null ? null : chf(price * qty),
    listedSince: listed ? pack.sl?.listed_since ?? null : null,
    limitation: { limited: limitation !== null, text: limitation?.text ?? null, points: limitation?.points ?? null },
    coinsurance: listed
      ? { percent: co.percent, basis: co.basis, amountChf: price === null ? null : chf((price * qty * co.percent) / 100) }
      : null,
    lima: limaPath(pack, listed),
    offLabelPath: { applicable: !listed || limitation !== null, rule: OFF_LABEL_RULE },
    meta: await metaFor(ctx.loaders.source, [pack.source]),
  };
}

/** POST /v1/ch/price-comparison. */
export async function comparePrices(ctx: RequestContext, ref: DrugReference, quantity = 1) {
  const qty = checkQuantity(quantity);
  const pack = await requirePack(ctx, ref);
  const price = pack.sl?.listed ? pack.sl.public_price ?? null : null;
  const co = coinsuranceOf(pack);
  const substitutes = price === null ? [] : await cheaperSubstitutes(ctx.db, pack, price);
  const share = (p: number, percent: number) => (p * percent) / 100;
  return {
    pack: packView(pack),
    listed: price !== null,
    quantity: qty,
    publicPriceChf: price,
    coinsurancePercent: price === null ? null : co.percent,
    substitutes: substitutes.map((s) => {
      const sPrice = s.sl!.public_price!;
      const sCo = coinsuranceOf(s);
      return {
        pack: packView(s), publicPriceChf: sPrice, coinsurancePercent: sCo.percent,
        savingPerPackChf: chf(price! - sPrice), savingTotalChf: chf((price! - sPrice) * qty),
        coinsuranceDeltaPerPackChf: chf(share(price!, co.percent) - share(sPrice, sCo.percent)),
      };
    }),
    meta: await metaFor(ctx.loaders.source, [pack.source, ...substitutes.map((s) => s.source)]),
  };
}
