import { describe, expect, it } from 'vitest';
import { BIZ_TYPES, PRINT_CATALOGUES, vocabularyOf } from '../print';
import { buildPrintData, chineseDate, formatRate, sampleData } from './data';
import { renderTemplate, TemplateError, unknownPlaceholders } from './template';

describe('print template engine', () => {
  it('prints fields escaped, so markup in data prints as text', () => {
    const html = renderTemplate('<p>甲方：{{custName}}</p>', {
      custName: '<script>alert("x")</script>&<img src=x onerror=alert(1)>',
    });
    expect(html).toBe(
      '<p>甲方：&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&lt;img src=x onerror=alert(1)&gt;</p>',
    );
  });

  it('repeats a list section per row, looking names up in the row first, then the document', () => {
    const html = renderTemplate('{{#plan}}<tr><td>{{period}}</td><td>{{contractNo}}</td></tr>{{/plan}}', {
      contractNo: 'BL-1',
      plan: [{ period: '1' }, { period: '2', contractNo: 'row' }],
    });
    expect(html).toBe('<tr><td>1</td><td>BL-1</td></tr><tr><td>2</td><td>row</td></tr>');
  });

  it('renders conditional and inverted sections by emptiness, and drops comments', () => {
    const tpl =
      '{{#coreCompName}}核心企业：{{coreCompName}}{{/coreCompName}}{{^coreCompName}}无{{/coreCompName}}{{! note }}';
    expect(renderTemplate(tpl, { coreCompName: '宏达' })).toBe('核心企业：宏达');
    expect(renderTemplate(tpl, { coreCompName: '' })).toBe('无');
    expect(renderTemplate('{{^plan}}暂无计划{{/plan}}', { plan: [] })).toBe('暂无计划');
  });

  it('refuses malformed templates with the line of the mistake', () => {
    expect(() => renderTemplate('a\n{{#plan}}x', {})).toThrow('模板第2行：{{#plan}} 缺少结束标记 {{/plan}}');
    expect(() => renderTemplate('{{#a}}{{/b}}', {})).toThrow(TemplateError);
    expect(() => renderTemplate('x\n\n{{{raw}}}', {})).toThrow('模板第3行：无法识别的占位符');
    expect(() => renderTemplate('{{a.b}}', {})).toThrow('无法识别的占位符 {{a.b}}');
    expect(() => renderTemplate('{{/a}}', {})).toThrow('没有对应的开始标记');
    expect(() => renderTemplate('ok {{name', {})).toThrow('占位符缺少 }}');
  });

  it('names the placeholders a document type does not have', () => {
    const vocabulary = vocabularyOf('contract');
    expect(
      unknownPlaceholders(
        '{{contractNo}}{{financingAmountCapitals}}{{custNmae}}{{#plan}}{{period}}{{invoiceNo}}{{/plan}}{{period}}',
        vocabulary,
      ),
    ).toEqual(['custNmae', 'invoiceNo', 'period']);
  });
});

describe('print data', () => {
  it('formats money with its capitals twin, rates as percentages, and keeps text as it is', () => {
    const data = buildPrintData('credit', {
      fields: {
        printDate: '2026年11月23日',
        companyName: '华信商业保理有限公司',
        companyAddress: null,
        companyRegNo: null,
        companySeal: null,
        companySignatory: null,
        bizCode: '000000000002',
        custName: '甲',
        limitAmount: '1004.50',
        currency: '人民币',
        cycle: '循环',
        product: '保理',
        startDate: '2026-01-01',
        endDate: '2026-12-31',
        state: '已审核',
        remark: null,
      },
      lists: {},
    });
    expect(data.limitAmount).toBe('1,004.50');
    expect(data.limitAmountCapitals).toBe('壹仟零肆元伍角');
    expect(data.remark).toBe('');
    expect(formatRate('0.085')).toBe('8.5%');
    expect(formatRate('0.08')).toBe('8%');
    expect(chineseDate('2026-01-05')).toBe('2026年1月5日');
  });

  it('refuses data that lacks a catalogue field', () => {
    expect(() =>
      buildPrintData('credit', {
        fields: {
          printDate: 'x',
          companyName: 'x',
          companyAddress: null,
          companyRegNo: null,
          companySeal: null,
          companySignatory: null,
        },
        lists: {},
      }),
    ).toThrow('print data of credit lacks the field bizCode');
  });

  it('has sample data for every placeholder of every type', () => {
    for (const type of BIZ_TYPES) {
      const data = sampleData(type);
      const vocabulary = vocabularyOf(type);
      for (const key of vocabulary.fields) expect(data, `${type}.${key}`).toHaveProperty(key);
      for (const list of PRINT_CATALOGUES[type].lists) expect(data[list.key]).toHaveLength(3);
    }
  });
});
