/** Resolver map of the interactions domain: the N-way check and prescription screening. */
import type { RequestContext } from '../context.ts';
import { checkInteractions } from './check.ts';
import type { DrugReference } from './references.ts';
import { validatePrescription } from '../prescriptions/validate.ts';
import type { ScreeningContext } from '../prescriptions/validate.ts';

interface PrescriptionArgs {
  proposed: DrugReference[];
  current?: DrugReference[] | null;
  context?: ScreeningContext | null;
}

export const interactionResolvers = {
  Query: {
    checkInteractions: (_: unknown, args: { drugs: DrugReference[] }, ctx: RequestContext) => checkInteractions(ctx, args.drugs),
    validatePrescription: (_: unknown, args: PrescriptionArgs, ctx: RequestContext) =>
      validatePrescription(ctx, args.proposed, args.current ?? [], args.context ?? {}),
  },
};
