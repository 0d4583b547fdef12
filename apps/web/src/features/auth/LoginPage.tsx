import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, Card, Form, Input, Space, Tooltip, Typography } from 'antd';
import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { setToken } from '../../shared/auth/token';
import { APP_TITLE } from '../../shared/config/runtime';
import { ApiError } from '../../shared/request/http';
import { useSessionStore } from '../../shared/session/session-store';
import { fetchCaptcha, login, type Captcha, type LoginForm } from './api';

/** Only same-site paths are followed after login (no `//host` or absolute URLs). */
export function safeRedirect(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/login')) return '/';
  return value;
}

function needsCaptcha(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  const data = err.data as { needCaptcha?: boolean } | undefined;
  return !!data?.needCaptcha;
}

export default function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form] = Form.useForm<LoginForm>();
  const [captcha, setCaptcha] = useState<Captcha | null>(null);
  const [needCaptcha, setNeedCaptcha] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    document.title = `登录 - ${APP_TITLE}`;
  }, []);

  const refreshCaptcha = async () => {
    form.setFieldValue('vCode', '');
    try {
      setCaptcha(await fetchCaptcha());
    } catch {
      setCaptcha(null);
    }
  };

  const submit = async (values: LoginForm) => {
    setSubmitting(true);
    try {
      const result = await login({
        userName: values.userName,
        passWord: values.passWord,
        vCode: needCaptcha ? values.vCode : undefined,
        vCodeToken: needCaptcha ? captcha?.vCodeToken : undefined,
      });
      setToken(result.accessToken);
      if (result.mustChangePassword) useSessionStore.getState().markMustChangePassword(true);
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch (err) {
      // A captcha token is single-use: whenever one is needed, draw a new one.
      if (needsCaptcha(err) || needCaptcha) {
        setNeedCaptcha(true);
        await refreshCaptcha();
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className="login-page">
      <Card className="login-card" variant="borderless">
        <Typography.Title level={3} className="login-card__title">
          {APP_TITLE}
        </Typography.Title>
        <Typography.Paragraph type="secondary" className="login-card__subtitle">
          系统登录
        </Typography.Paragraph>
        <Form<LoginForm> form={form} size="large" onFinish={submit} autoComplete="on" requiredMark={false}>
          <Form.Item name="userName" rules={[{ required: true, whitespace: true, message: '请输入用户名' }]}>
            <Input
              prefix={<UserOutlined />}
              placeholder="用户名"
              autoComplete="username"
              aria-label="用户名"
            />
          </Form.Item>
          <Form.Item name="passWord" rules={[{ required: true, message: '请输入密码' }]}>
            <Input.Password
              prefix={<LockOutlined />}
              placeholder="密码"
              autoComplete="current-password"
              aria-label="密码"
            />
          </Form.Item>
          {needCaptcha ? (
            <Form.Item required>
              <Space.Compact block>
                <Form.Item
                  name="vCode"
                  noStyle
                  rules={[{ required: true, whitespace: true, message: '请输入验证码' }]}
                >
                  <Input
                    prefix={<SafetyOutlined />}
                    placeholder="验证码"
                    aria-label="验证码"
                    maxLength={16}
                  />
                </Form.Item>
                <Tooltip title="看不清？换一张">
                  <button
                    type="button"
                    className="login-captcha"
                    onClick={() => void refreshCaptcha()}
                    aria-label="刷新验证码"
                  >
                    {captcha ? <img src={captcha.image} alt="验证码" /> : <span>获取验证码</span>}
                  </button>
                </Tooltip>
              </Space.Compact>
            </Form.Item>
          ) : null}
          <Form.Item>
            <Button type="primary" htmlType="submit" block loading={submitting}>
              登录
            </Button>
          </Form.Item>
        </Form>
      </Card>
    </div>
  );
}
