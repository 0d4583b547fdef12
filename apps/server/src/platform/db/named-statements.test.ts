import { describe, expect, it } from 'vitest';
import { StatementNames, withName } from './named-statements';

describe('prepared statements by name', () => {
  it('names a parameterised text from its second run on, the same name every time', () => {
    const names = new StatementNames();
    const q = { text: 'select * from paids where id = $1' };
    expect(withName(names, q, [1])).toBe(q);
    const second = withName(names, q, [2]) as { name: string; text: string };
    expect(second).toEqual({ text: q.text, name: expect.stringMatching(/^portal_\d+$/) });
    expect(withName(names, q, [3])).toEqual(second);
    // A plain text with values becomes a config under the same name.
    expect(withName(names, q.text, [4])).toEqual({ text: q.text, name: second.name });
    expect(q).toEqual({ text: 'select * from paids where id = $1' });
  });

  it('leaves alone what must not be prepared: no values, a script, a name given, a submittable', () => {
    const names = new StatementNames(10, 1);
    expect(withName(names, 'begin', undefined)).toBe('begin');
    expect(withName(names, 'select 1; select 2', [])).toBe('select 1; select 2');
    const named = { text: 'select $1', name: 'mine' };
    expect(withName(names, named, [1])).toBe(named);
    const cursor = { text: 'select $1', submit: () => undefined };
    expect(withName(names, cursor, [1])).toBe(cursor);
    expect(names.count()).toBe(0);
  });

  it('gives distinct texts distinct names and stops naming at its bound', () => {
    const names = new StatementNames(2, 1);
    const a = withName(names, 'select $1::int', [1]) as { name: string };
    const b = withName(names, 'select $1::text', ['x']) as { name: string };
    expect(a.name).not.toBe(b.name);
    expect(withName(names, 'select $1::date', ['2026-01-01'])).toBe('select $1::date');
    expect(withName(names, 'select $1::int', [2])).toEqual({ text: 'select $1::int', name: a.name });
    expect(names.count()).toBe(2);
  });
});
