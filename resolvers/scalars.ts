/** Custom scalars of the internal schema, from graphql-scalars. */
import { DateTimeResolver, JSONResolver } from 'graphql-scalars';

export const scalarResolvers = { JSON: JSONResolver, DateTime: DateTimeResolver };
