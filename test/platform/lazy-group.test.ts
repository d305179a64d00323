import { describe, expect, it } from 'vitest';
import { lazyGroup, withOverrides } from '../../platform/lazy-group.ts';

describe('lazyGroup', () => {
  const built: string[] = [];
  const make = lazyGroup<{ prefix: string }>()({
    a: ({ prefix }) => (built.push('a'), { name: `${prefix}-a` }),
    b: ({ prefix }) => (built.push('b'), { name: `${prefix}-b` }),
  });

  it('builds a member on first read only, once per group, from that group’s dependencies', () => {
    built.length = 0;
    const one = make({ prefix: 'one' });
    const two = make({ prefix: 'two' });
    expect(built).toEqual([]);
    expect(one.a.name).toBe('one-a');
    expect(one.a).toBe(one.a);
    expect(two.a.name).toBe('two-a');
    expect(two.a).not.toBe(one.a);
    expect(built).toEqual(['a', 'a']);
  });

  it('replaces members with withOverrides and shares the others with the group', () => {
    built.length = 0;
    const group = make({ prefix: 'x' });
    const other = { name: 'other' };
    const dated = withOverrides(group, { b: other });
    expect(dated.b).toBe(other);
    expect(dated.a.name).toBe('x-a');
    expect(group.a).toBe(dated.a);
    expect(group.b.name).toBe('x-b');
    expect(built).toEqual(['a', 'b']);
  });
});
