import { createHash } from 'node:crypto';
import type { BizType } from '@portal/contract/print';

/** 本公司's seal (参数设置's image), printed under its name where it signs. */
const SEAL =
  '{{#companySeal}}<br /><img src="{{companySeal}}" alt="公章" width="120" height="120" />{{/companySeal}}';

/**
 * The foot of a notice to the customer: 本公司's name, seal and signatory (参数设置) and the
 * print date, on the right (docs/operations.md "Seal and signatory").
 */
const NOTICE_FOOT = `<table class="plain" style="margin-top: 32px">
<tr><td style="width: 55%"></td><td>{{companyName}}（盖章）${SEAL}</td></tr>
<tr><td></td><td>签字：{{companySignatory}}</td></tr>
<tr><td></td><td>日期：{{printDate}}</td></tr>
</table>`;

/**
 * The office's standard print templates, one per business type (provided once on every database
 * by seed.ts, and a starting point for the office's own). The contract prints on two pages: the terms, then the
 * repayment plan and the transferred receivables.
 */
export const STANDARD_TEMPLATES: Record<BizType, { name: string; content: string }> = {
  contract: {
    name: '标准保理合同',
    content: `<h1>国内保理业务合同</h1>
<p style="text-align: right">合同号：{{contractNo}}</p>
<table class="plain">
<tr><td style="width: 30%">甲方（保理商）：</td><td>{{companyName}}</td></tr>
{{#companyRegNo}}<tr><td>统一社会信用代码：</td><td>{{companyRegNo}}</td></tr>{{/companyRegNo}}
{{#companyAddress}}<tr><td>住所：</td><td>{{companyAddress}}</td></tr>{{/companyAddress}}
<tr><td>乙方（卖方）：</td><td>{{custName}}</td></tr>
{{#coreCompName}}<tr><td>核心企业：</td><td>{{coreCompName}}</td></tr>{{/coreCompName}}
</table>
<p style="text-indent: 2em">乙方将其对债务人的应收账款转让予甲方，甲方为乙方提供{{disclosure}}（{{recourse}}）业务，产品为{{product}}。双方经协商一致，订立本合同。</p>
<h3>第一条 融资金额与期限</h3>
<p style="text-indent: 2em">转让的应收账款金额为人民币{{receivablesAmount}}元，融资比例为{{financingRatio}}。融资金额为人民币（大写）{{financingAmountCapitals}}（小写：¥{{financingAmount}}），币种{{currency}}。融资期限自{{startDate}}起至{{maturityDate}}止。</p>
<h3>第二条 利息与费用</h3>
<p style="text-indent: 2em">融资按计息规则「{{ruleName}}」计收，年利率{{annualRate}}；预计利息合计人民币{{totalInterest}}元（大写：{{totalInterestCapitals}}），费用合计人民币{{totalFee}}元。{{#marginRatio}}乙方应按融资金额的{{marginRatio}}缴存保证金。{{/marginRatio}}</p>
<h3>第三条 还款</h3>
<p style="text-indent: 2em">乙方及债务人应按附件一所列还款计划将款项付至甲方指定账户：户名{{bankName}}，账号{{bankAccountNo}}。逾期未付的，甲方有权按计息规则收取罚息。</p>
<h3>第四条 其他</h3>
<p style="text-indent: 2em">本合同自双方签字盖章之日起生效。本合同一式两份，双方各执一份，具有同等法律效力。</p>
<table class="plain" style="margin-top: 48px">
<tr><td style="width: 50%">甲方（盖章）：{{companyName}}${SEAL}</td><td>乙方（盖章）：{{custName}}</td></tr>
<tr><td>法定代表人或授权代表（签字）：{{companySignatory}}</td><td>法定代表人或授权代表（签字）：</td></tr>
<tr><td>经办人：{{managerName}}</td><td></td></tr>
<tr><td>日期：{{printDate}}</td><td>日期：</td></tr>
</table>
<div class="page-break"></div>
<h2>附件一 还款计划</h2>
<p>罚息截至{{asOf}}。</p>
<table>
<thead><tr><th>期次</th><th class="date">起息日</th><th class="date">还款日</th><th>天数</th><th class="num">本金</th><th class="num">利息</th><th class="num">费用</th><th class="num">应还合计</th><th class="num">罚息</th></tr></thead>
<tbody>
{{#plan}}<tr><td>{{period}}</td><td class="date">{{startDate}}</td><td class="date">{{dueDate}}</td><td>{{days}}</td><td class="num">{{principal}}</td><td class="num">{{interest}}</td><td class="num">{{fee}}</td><td class="num">{{total}}</td><td class="num">{{penalty}}</td></tr>{{/plan}}
</tbody>
</table>
<h2>附件二 转让应收账款清单</h2>
<table>
<thead><tr><th>发票号</th><th>债务人</th><th class="date">开票日期</th><th class="date">到期日</th><th class="num">金额</th></tr></thead>
<tbody>
{{#receivables}}<tr><td>{{invoiceNo}}</td><td>{{debtorName}}</td><td class="date">{{invoiceDate}}</td><td class="date">{{dueDate}}</td><td class="num">{{amount}}</td></tr>{{/receivables}}
</tbody>
</table>`,
  },
  handover: {
    name: '标准资料交接单',
    content: `<h1>资料交接单</h1>
<table class="plain">
<tr><td>交接单编号：{{bizCode}}</td><td>合同号：{{contractNo}}</td></tr>
<tr><td>客户名称：{{custName}}</td><td>交接日期：<span class="nowrap">{{handoverDate}}</span></td></tr>
</table>
<table>
<thead><tr><th>序号</th><th>资料名称</th><th>原件/复印件</th><th>份数</th><th>页数</th><th>备注</th></tr></thead>
<tbody>
{{#items}}<tr><td>{{index}}</td><td>{{docName}}</td><td>{{kind}}</td><td>{{copies}}</td><td>{{pages}}</td><td>{{remark}}</td></tr>{{/items}}
</tbody>
</table>
<p>备注：{{remark}}</p>
<table class="plain" style="margin-top: 32px">
<tr><td style="width: 50%">保理商（盖章）：{{companyName}}${SEAL}</td><td>客户（盖章）：{{custName}}</td></tr>
<tr><td>移交人：{{handoverName}}</td><td>接收人：{{receiverName}}</td></tr>
<tr><td>日期：{{printDate}}</td><td>日期：</td></tr>
</table>`,
  },
  prepayment: {
    name: '标准前期款缴款通知书',
    content: `<h1>前期款缴款通知书</h1>
<p>{{custName}}：</p>
<p style="text-indent: 2em">根据合同{{contractNo}}的约定，请贵司于{{receiveDate}}前以{{method}}方式缴付前期款人民币{{amount}}元（大写：{{amountCapitals}}）。明细如下：</p>
<table>
<thead><tr><th>费用类型</th><th class="date">应收日期</th><th class="num">应收金额</th><th class="num">本次收取</th></tr></thead>
<tbody>
{{#lines}}<tr><td>{{kind}}</td><td class="date">{{dueDate}}</td><td class="num">{{amount}}</td><td class="num">{{lineAmount}}</td></tr>{{/lines}}
</tbody>
</table>
<p>付款人：{{payerName}}，前期款编号：{{preamtBizCode}}</p>
${NOTICE_FOOT}`,
  },
  assignNotice: {
    name: '标准应收账款转让通知书',
    content: `<h1>应收账款转让通知书</h1>
<p style="text-align: right">编号：{{noticeBizCode}}</p>
<p>{{debtorName}}：</p>
<p style="text-indent: 2em">{{custName}}（以下简称“转让人”）已将其对贵司享有的下列应收账款及其项下的全部权利，依据转让人与我司签订的保理合同（合同号：{{contractNo}}）转让予我司。转让的应收账款明细如下：</p>
<table>
<thead><tr><th>发票号</th><th class="date">开票日期</th><th class="date">到期日</th><th class="num">金额</th></tr></thead>
<tbody>
{{#receivables}}<tr><td>{{invoiceNo}}</td><td class="date">{{invoiceDate}}</td><td class="date">{{dueDate}}</td><td class="num">{{amount}}</td></tr>{{/receivables}}
</tbody>
<tfoot><tr><td>合计</td><td></td><td></td><td class="num">{{totalAmount}}</td></tr></tfoot>
</table>
<p style="text-indent: 2em">转让应收账款合计人民币{{totalAmount}}元（大写：{{totalAmountCapitals}}）。自收到本通知之日起，请贵司将上述应收账款项下的全部款项直接支付至我司账户：户名{{bankName}}，账号{{bankAccountNo}}。未经我司书面同意，该付款指示不得变更或撤销。</p>
<p style="text-indent: 2em">请贵司在下方回执签章确认后交回我司。</p>
<h3>回执</h3>
<p style="text-indent: 2em">我司已收到编号为{{noticeBizCode}}的应收账款转让通知书，知悉并确认上述应收账款已转让予{{companyName}}，并将按通知向其付款。</p>
<table class="plain">
<tr><td style="width: 55%">债务人（盖章）：{{debtorName}}</td><td>经办人（签字）：</td></tr>
<tr><td>日期：</td><td></td></tr>
</table>
${NOTICE_FOOT}`,
  },
  loan: {
    name: '标准放款通知书',
    content: `<h1>放款通知书</h1>
{{#redMark}}<p style="text-align: center; color: #cf1322; font-size: 20px; border: 2px solid #cf1322">{{redMark}}</p>{{/redMark}}
<p>{{custName}}：</p>
<p style="text-indent: 2em">根据保理合同{{contractNo}}的约定，我司已于{{valueDate}}向贵司发放融资款。融资金额人民币{{financingAmount}}元，扣收前期款项合计人民币{{deductedAmount}}元，退还多收人民币{{returnedAmount}}元，实付金额人民币{{netAmount}}元（大写：{{netAmountCapitals}}）。明细如下：</p>
<table>
<thead><tr><th>款项</th><th class="num">合同应收</th><th class="num">本次应收</th><th class="num">前期款已收</th><th class="num">本次扣收</th><th class="num">退还多收</th></tr></thead>
<tbody>
{{#lines}}<tr><td>{{kind}}</td><td class="num">{{dueAmount}}</td><td class="num">{{amount}}</td><td class="num">{{prepaid}}</td><td class="num">{{deducted}}</td><td class="num">{{returned}}</td></tr>{{/lines}}
</tbody>
<tfoot><tr><td>合计</td><td></td><td></td><td class="num">{{prepaidAmount}}</td><td class="num">{{deductedAmount}}</td><td class="num">{{returnedAmount}}</td></tr></tfoot>
</table>
<p>实付金额 = 融资金额 {{financingAmount}} − 本次扣收 {{deductedAmount}} + 退还多收 {{returnedAmount}} = {{netAmount}}（元）。</p>
<table class="plain">
<tr><td>付款账户：{{payBankName}} {{payAccountNo}}</td><td>收款账户：{{payeeBankName}} {{payeeAccountNo}}</td></tr>
<tr><td>银行流水号：{{serialNo}}</td><td>放款单编号：{{loanBizCode}}</td></tr>
</table>
${NOTICE_FOOT}`,
  },
  repayment: {
    name: '标准还款通知书',
    content: `<h1>还款通知书</h1>
<p>{{custName}}：</p>
<p style="text-indent: 2em">贵司与我司签订的保理合同{{contractNo}}项下，本期应还款日为{{nextDueDate}}{{#overdueNote}}，该期{{overdueNote}}{{/overdueNote}}，截至{{asOf}}应还金额人民币{{nextDueAmount}}元（大写：{{nextDueAmountCapitals}}）。截至{{asOf}}未还合计人民币{{outstandingTotal}}元，其中罚息{{penaltyTotal}}元。请{{#overdueNote}}尽快{{/overdueNote}}{{^overdueNote}}按期{{/overdueNote}}将款项付至户名{{bankName}}、账号{{bankAccountNo}}。</p>
<table>
<thead><tr><th>期次</th><th class="date">还款日</th><th class="num">应还合计</th><th class="num">罚息</th><th class="num">已还</th><th class="num">未还</th><th>逾期天数</th></tr></thead>
<tbody>
{{#openItems}}<tr><td>{{period}}</td><td class="date">{{dueDate}}</td><td class="num">{{total}}</td><td class="num">{{penalty}}</td><td class="num">{{paid}}</td><td class="num">{{outstanding}}</td><td>{{overdueDays}}</td></tr>{{/openItems}}
</tbody>
</table>
{{^openItems}}<p>本合同已无未还款项。</p>{{/openItems}}
${NOTICE_FOOT}`,
  },
  writeOff: {
    name: '标准核销确认书',
    content: `<h1>来款核销确认书</h1>
<table class="plain">
<tr><td>核销编号：{{paidBizCode}}</td><td>合同号：{{contractNo}}</td></tr>
<tr><td>客户名称：{{custName}}</td><td>付款人：{{payerName}}</td></tr>
<tr><td>来款日期：{{valueDate}}</td><td>银行流水号：{{serialNo}}</td></tr>
<tr><td>来款金额：{{incomeAmount}}</td><td>核销日期：{{paidDate}}</td></tr>
</table>
<p>本次{{kind}}金额人民币{{amount}}元（大写：{{amountCapitals}}），其中本金{{principal}}元。明细如下：</p>
<table>
<thead><tr><th>期次</th><th class="date">还款日</th><th>科目</th><th class="num">金额</th></tr></thead>
<tbody>
{{#lines}}<tr><td>{{period}}</td><td class="date">{{dueDate}}</td><td>{{component}}</td><td class="num">{{amount}}</td></tr>{{/lines}}
</tbody>
</table>
${NOTICE_FOOT}`,
  },
  statement: {
    name: '标准客户对账单',
    content: `<h1>客户对账单</h1>
<table class="plain">
<tr><td>客户名称：{{custName}}</td><td>客户编号：{{custCode}}</td></tr>
<tr><td>对账期间：{{dateFrom}} 至 {{dateTo}}</td><td>合同号：{{contractNo}}</td></tr>
</table>
<p>期初本金余额人民币{{opening}}元。</p>
<table class="compact">
<thead><tr><th class="date">日期</th><th>业务类型</th><th>单据编号</th><th>合同号</th><th class="num">放款本金</th><th class="num">回款金额</th><th class="num">本金</th><th class="num">利息</th><th class="num">费用</th><th class="num">罚息</th><th class="num">本金余额</th><th style="width: 14%">备注</th></tr></thead>
<tbody>
{{#lines}}<tr><td class="date">{{date}}</td><td class="nowrap">{{kind}}</td><td class="nowrap">{{docCode}}</td><td>{{contractNo}}</td><td class="num">{{disbursed}}</td><td class="num">{{received}}</td><td class="num">{{principal}}</td><td class="num">{{interest}}</td><td class="num">{{fee}}</td><td class="num">{{penalty}}</td><td class="num">{{balance}}</td><td>{{remark}}</td></tr>{{/lines}}
</tbody>
</table>
<p>本期放款{{disbursed}}元；本期回款{{received}}元，其中本金{{principal}}元、利息{{interest}}元、费用{{fee}}元、罚息{{penalty}}元。</p>
<p>期末本金余额人民币{{closing}}元（大写：{{closingCapitals}}）。</p>
<p>请贵司核对上述往来，如有不符，请于收到本对账单之日起十日内提出。</p>
<table class="plain" style="margin-top: 32px">
<tr><td style="width: 50%">保理商（盖章）：{{companyName}}${SEAL}</td><td>客户确认（盖章）：{{custName}}</td></tr>
<tr><td>签字：{{companySignatory}}</td><td>签字：</td></tr>
<tr><td>日期：{{printDate}}</td><td>日期：</td></tr>
</table>`,
  },
  credit: {
    name: '标准授信审批表',
    content: `<h1>授信审批表</h1>
<table>
<tr><th style="width: 25%">授信编号</th><td>{{bizCode}}</td><th style="width: 20%">审核状态</th><td>{{state}}</td></tr>
<tr><th>客户名称</th><td colspan="3">{{custName}}</td></tr>
<tr><th>授信额度</th><td colspan="3">人民币{{limitAmount}}元（大写：{{limitAmountCapitals}}）</td></tr>
<tr><th>额度类型</th><td>{{cycle}}</td><th>产品</th><td>{{product}}</td></tr>
<tr><th>起始日</th><td class="date">{{startDate}}</td><th>到期日</th><td class="date">{{endDate}}</td></tr>
<tr><th>备注</th><td colspan="3">{{remark}}</td></tr>
</table>
<table class="plain" style="margin-top: 32px">
<tr><td>经办人：</td><td>审批人：</td><td>日期：{{printDate}}</td></tr>
</table>`,
  },
  classAdjust: {
    name: '标准分类调整单',
    content: `<h1>五级分类调整单</h1>
<p style="text-align: right">单据编号：{{adjBizCode}}</p>
<table>
<tr><th style="width: 20%">合同号</th><td>{{contractNo}}</td><th style="width: 20%">合同编号</th><td>{{contBizCode}}</td></tr>
<tr><th>客户名称</th><td colspan="3">{{custName}}</td></tr>
<tr><th>逾期天数</th><td>{{overdueDays}}</td><th>建议分类</th><td>{{proposedClass}}</td></tr>
<tr><th>调整前分类</th><td>{{fromClass}}</td><th>调整后分类</th><td>{{toClass}}</td></tr>
<tr><th>调整原因</th><td colspan="3">{{reason}}</td></tr>
<tr><th>审核状态</th><td>{{state}}</td><th>生效日期</th><td class="date">{{effectiveDate}}</td></tr>
<tr><th>经办人</th><td>{{makerName}}</td><th>提交时间</th><td class="date">{{madeAt}}</td></tr>
<tr><th>复核人</th><td>{{checkerName}}</td><th>复核时间</th><td class="date">{{checkedAt}}</td></tr>
<tr><th>复核意见</th><td colspan="3">{{checkComment}}</td></tr>
</table>
<table class="plain" style="margin-top: 32px">
<tr><td>经办人（签字）：</td><td>复核人（签字）：</td><td>日期：{{printDate}}</td></tr>
</table>`,
  },
  buyback: {
    name: '标准回购通知书',
    content: `<h1>应收账款回购通知书</h1>
<p style="text-align: right">回购单编号：{{buybackBizCode}}</p>
<p>致：{{custName}}</p>
<p>贵司与我司签订的保理合同（合同号：{{contractNo}}）项下应收账款，债务人未按期付款。根据合同约定的追索权条款，请贵司回购该合同项下未收回的应收账款。截至回购日{{buybackDate}}，回购金额计算如下：</p>
<table>
<tr><th style="width: 40%">未还本金</th><td class="num">{{principal}}</td></tr>
<tr><th>利息（计至回购日）</th><td class="num">{{interest}}</td></tr>
<tr><th>费用</th><td class="num">{{fee}}</td></tr>
<tr><th>罚息</th><td class="num">{{penalty}}</td></tr>
<tr><th>回购金额合计</th><td class="num">{{amount}}</td></tr>
</table>
<p>回购金额合计人民币{{amount}}元（大写：{{amountCapitals}}）。明细如下：</p>
<table>
<thead><tr><th>期次</th><th class="date">还款日</th><th>科目</th><th class="num">金额</th></tr></thead>
<tbody>
{{#lines}}<tr><td>{{period}}</td><td class="date">{{dueDate}}</td><td>{{component}}</td><td class="num">{{amount}}</td></tr>{{/lines}}
</tbody>
</table>
<p>请贵司将上述款项支付至我司账户。已收回购款{{settled}}元，未收回购款{{open}}元。</p>
${NOTICE_FOOT}`,
  },
};

/** How a stored template body is recognised: SHA-256 (hex) of its stored, sanitised text. */
export const templateHash = (content: string): string => createHash('sha256').update(content).digest('hex');

/**
 * Every standard text a release has stored, by type: the hash of each one as seed.ts stored it
 * (sanitised), the current one included. An office's template whose body is one of the earlier
 * texts is unedited and is brought to the current one at start-up; any other body is the office's
 * and is never touched. Changing a standard template means adding the new text's hash here
 * (seed.test.ts fails until it is), never removing one.
 */
export const RELEASED_STANDARD_HASHES: Record<BizType, readonly string[]> = {
  contract: [
    '588691d824134ee90af4839a280d662233c8fa754a5e0071099d0ddb140331f0',
    'f57105b7a2e404c906db2ba09a0d3a29a81ad15742e91ff7d1af0eb155ef78fa',
    // 罚息 column and the as-of date in 附件一.
    'fa1741bfd5e725c13ce7dc8671dfacaa36fba4b740babd25482416061d370fb5',
    // 本公司 name, seal (参数设置) and signatory at the foot; dates on one line.
    'f0766b4b50e3844a265ad25cedec13eee7e083ff40d637c70c0bcace0b867646',
  ],
  handover: [
    'fd2b30c7cf9d04fd09182299267b9f586d77cf71f990318d9b1e596548e00c76',
    // 本公司 name, seal (参数设置) and signatory at the foot; dates on one line.
    'fc7b1e050c78c5edafcd8be38b5d4ca5f94fa527cbf2a1062c629005f3cfdd02',
  ],
  prepayment: [
    'be5aa45c8768da39eec9fa06e711f9b573093f5c38010b2f4bed37f0137cdc4e',
    // 本公司 name, seal (参数设置) and signatory at the foot; dates on one line.
    '4a57df6d183ccb13aabec475640fef90a108db42cc20729953212a3fd7e216ae',
  ],
  loan: [
    '3bf7d1159b8c40d521c8ed91e333d808dfd064e752d37cd982ae0244524a326e',
    // Every up-front line (合同应收, 本次应收, 前期款已收, 本次扣收, 退还多收) and the net.
    '38a3c4b1daac88090792ced8e506cb6f92c8a96f1c2dbdce0f5a4b4c19188dd8',
    // 本公司 name, seal (参数设置) and signatory at the foot.
    '08534490973eeb778623bf20ebcc39c4c8dc418198f522e44c65ec947d0973e4',
  ],
  repayment: [
    '04c791b5a483c81cb89b2ff79463b470e09f8f8b6f2cbea4800a5e48dfe53093',
    // 罚息 column, the as-of date and 已逾期 N 天.
    '77797360d6c2ec4f35969f7e66cf05f9a48c16d33458fd3ba2c18ca60ef18507',
    // 本公司 name, seal (参数设置) and signatory at the foot; dates on one line.
    '1c6043c6c39624cb57c814ddeaf3d033f98cd6a9a908e8a2fbaec4a69b2c5b0a',
  ],
  writeOff: [
    '25d0884eb511579df7b681ef4ecce1d8c73c77367f39cc9d762445dc2eea823c',
    // 本公司 name, seal (参数设置) and signatory at the foot; dates on one line.
    '881ec03c8b031a077d919a87116094e359b4ad7b452a9ad943fa61bcd9b65cab',
  ],
  credit: [
    '898b4c447dbe267e76c8387e64d4b7f22aa55fb38d070e984a2c9c4fdd1e688c',
    // Dates kept on one line.
    '2b65c9b840b63ca63c19584be3455b5c0351fd4495dba1466b62fa7f3dddd17c',
  ],
  statement: [
    '244b3a2d6ffb15daefbcf3950ee95327c8651226429d1c62249874f3d9062197',
    // Landscape ledger (compact, dates and codes on one line); 本公司 name, seal and signatory at the foot.
    'a2104595f81129b930baac890101d8c1b243e1c450e4b9b761e22481e3905aec',
  ],
  classAdjust: [
    'b5df0e6e20e682ad5f9f736fc44d6a410f01af8e0631bee6e6565c814f9753b3',
    // Dates kept on one line.
    '0d480312986b36154513dd0cb6e565031645ce4331c932eaf342a7e30bb68442',
  ],
  assignNotice: ['e000095e2055f63e4268b190750b5c83e1cffd6cfe1ebb93f19a1a05d36911ff'],
  buyback: ['e48915befbeb7db442cfc3302a3d67099d1381eac984816bbf7edaaa5b6fbd1a'],
};
