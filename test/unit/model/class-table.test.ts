import { describe, expect, it } from 'vitest';
import { ClassTable } from '../../../src/model/class-table.js';
import type { ObjectClass } from '../../../src/model/object-class.js';
import { InternalError } from '../../../src/errors.js';

const toy = 'toy' as ObjectClass;

describe('a layer\'s table of object classes', () => {
  it('holds the built-in classes, then a registered one until it is taken out', () => {
    const table = new ClassTable<string>('test side', { rule: 'rules', ip: 'ip entries' });
    const unregister = table.register('toy', 'toys');
    expect([table.kinds(), table.get(toy), table.has(toy)]).toEqual([['rule', 'ip', 'toy'], 'toys', true]);
    unregister();
    expect([table.kinds(), table.has(toy)]).toEqual([['rule', 'ip'], false]);
  });

  it('refuses a class registered twice, and names a class without this side', () => {
    const table = new ClassTable<string>('test side', { rule: 'rules', ip: 'ip entries' });
    expect(() => table.register('rule', 'again')).toThrow('object class "rule" already has test side');
    expect(() => table.get(toy)).toThrow(InternalError);
    expect(() => table.get(toy)).toThrow('object class "toy" has no test side registered');
  });
});
