/**
 * The bank dictionary: China's national banks and joint-stock commercial banks with their
 * CNAPS bank category codes (行别代码, the first three digits of a 12-digit 联行号).
 */
export const BANKS: readonly { code: string; name: string }[] = [
  { code: '102', name: '中国工商银行' },
  { code: '103', name: '中国农业银行' },
  { code: '104', name: '中国银行' },
  { code: '105', name: '中国建设银行' },
  { code: '301', name: '交通银行' },
  { code: '403', name: '中国邮政储蓄银行' },
  { code: '308', name: '招商银行' },
  { code: '302', name: '中信银行' },
  { code: '303', name: '中国光大银行' },
  { code: '304', name: '华夏银行' },
  { code: '305', name: '中国民生银行' },
  { code: '306', name: '广发银行' },
  { code: '307', name: '平安银行' },
  { code: '309', name: '兴业银行' },
  { code: '310', name: '上海浦东发展银行' },
  { code: '315', name: '恒丰银行' },
  { code: '316', name: '浙商银行' },
  { code: '318', name: '渤海银行' },
  { code: '201', name: '国家开发银行' },
  { code: '202', name: '中国进出口银行' },
  { code: '203', name: '中国农业发展银行' },
  { code: '313', name: '城市商业银行' },
  { code: '314', name: '农村商业银行' },
  { code: '402', name: '农村信用合作社' },
];
