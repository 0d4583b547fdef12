import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { setToken } from '../../shared/auth/token';
import { APP_TITLE } from '../../shared/config/runtime';
import { ApiError } from '../../shared/request/http';
import { useSessionStore } from '../../shared/session/session-store';
import { fetchCaptcha, login, type Captcha, type LoginForm } from './api';
import { Eye, EyeInvisible, Lock, Safety, User, type IconPaths } from './login-icons';

/**
 * The login page is built without antd (docs/architecture.md "The first screen without antd"): the
 * first screen of a visitor without a session loads neither antd's components nor its stylesheet.
 * It keeps antd's look (boot.css) and the rules of the form it replaced.
 */
type Field = 'userName' | 'passWord' | 'vCode';
type Errors = Partial<Record<Field, string>>;

/** The form's rules: each field required, 用户名 and 验证码 not blank either. */
export function validateLogin(values: Record<Field, string>, withCaptcha: boolean): Errors {
  const errors: Errors = {};
  if (!values.userName.trim()) errors.userName = '请输入用户名';
  if (!values.passWord) errors.passWord = '请输入密码';
  if (withCaptcha && !values.vCode.trim()) errors.vCode = '请输入验证码';
  return errors;
}

function Icon({ icon }: { icon: IconPaths }) {
  return (
    <svg
      viewBox={icon.viewBox}
      width="1em"
      height="1em"
      fill="currentColor"
      aria-hidden="true"
      focusable="false"
    >
      {icon.paths.map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}

/** One field: its prefix icon, the input, what follows it (a button), and its message below. */
function FieldRow({
  icon,
  error,
  errorId,
  children,
  suffix,
}: {
  icon: IconPaths;
  error: string | undefined;
  errorId: string;
  children: ReactNode;
  suffix?: ReactNode;
}) {
  return (
    <div className={`login-field${error ? ' login-field--error' : ''}`}>
      <div className="login-field__row">
        <span className="login-field__box">
          <span className="login-field__icon">
            <Icon icon={icon} />
          </span>
          {children}
        </span>
        {suffix}
      </div>
      {error ? (
        <div id={errorId} className="login-field__error" role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}

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
  const id = useId();
  const [values, setValues] = useState<Record<Field, string>>({ userName: '', passWord: '', vCode: '' });
  const [errors, setErrors] = useState<Errors>({});
  // Like the form it replaced: a field shows its message once it was changed or submitted.
  const [checked, setChecked] = useState<Partial<Record<Field, boolean>>>({});
  const [showPassword, setShowPassword] = useState(false);
  const [captcha, setCaptcha] = useState<Captcha | null>(null);
  const [needCaptcha, setNeedCaptcha] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    document.title = `登录 - ${APP_TITLE}`;
  }, []);

  const change = (field: Field, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    setChecked((c) => ({ ...c, [field]: true }));
    setErrors((e) => ({ ...e, [field]: validateLogin(next, needCaptcha)[field] }));
  };

  const refreshCaptcha = async () => {
    setValues((v) => ({ ...v, vCode: '' }));
    try {
      setCaptcha(await fetchCaptcha());
    } catch {
      setCaptcha(null);
    }
  };

  const submit = async (form: LoginForm) => {
    setSubmitting(true);
    try {
      const result = await login({
        userName: form.userName,
        passWord: form.passWord,
        vCode: needCaptcha ? form.vCode : undefined,
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

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (submitting) return;
    const found = validateLogin(values, needCaptcha);
    setErrors(found);
    setChecked({ userName: true, passWord: true, vCode: true });
    if (Object.keys(found).length) return;
    void submit({ userName: values.userName, passWord: values.passWord, vCode: values.vCode });
  };

  const shown = (field: Field) => (checked[field] ? errors[field] : undefined);
  const describedBy = (field: Field) => (shown(field) ? `${id}-${field}` : undefined);

  return (
    <div className="login-page">
      <div className="login-card">
        <h3 className="login-card__title">{APP_TITLE}</h3>
        <p className="login-card__subtitle">系统登录</p>
        <form onSubmit={onSubmit} autoComplete="on" noValidate>
          <FieldRow icon={User} error={shown('userName')} errorId={`${id}-userName`}>
            <input
              className="login-field__input"
              name="userName"
              value={values.userName}
              onChange={(e) => change('userName', e.target.value)}
              placeholder="用户名"
              autoComplete="username"
              aria-label="用户名"
              aria-invalid={!!shown('userName')}
              aria-describedby={describedBy('userName')}
            />
          </FieldRow>
          <FieldRow icon={Lock} error={shown('passWord')} errorId={`${id}-passWord`}>
            <input
              className="login-field__input"
              name="passWord"
              type={showPassword ? 'text' : 'password'}
              value={values.passWord}
              onChange={(e) => change('passWord', e.target.value)}
              placeholder="密码"
              autoComplete="current-password"
              aria-label="密码"
              aria-invalid={!!shown('passWord')}
              aria-describedby={describedBy('passWord')}
            />
            <button
              type="button"
              className="login-field__toggle"
              onClick={() => setShowPassword((v) => !v)}
              aria-label={showPassword ? '隐藏密码' : '显示密码'}
            >
              <Icon icon={showPassword ? Eye : EyeInvisible} />
            </button>
          </FieldRow>
          {needCaptcha ? (
            <FieldRow
              icon={Safety}
              error={shown('vCode')}
              errorId={`${id}-vCode`}
              suffix={
                <button
                  type="button"
                  className="login-captcha"
                  onClick={() => void refreshCaptcha()}
                  aria-label="刷新验证码"
                  title="看不清？换一张"
                >
                  {captcha ? <img src={captcha.image} alt="验证码" /> : <span>获取验证码</span>}
                </button>
              }
            >
              <input
                className="login-field__input"
                name="vCode"
                value={values.vCode}
                onChange={(e) => change('vCode', e.target.value)}
                placeholder="验证码"
                aria-label="验证码"
                maxLength={16}
                aria-invalid={!!shown('vCode')}
                aria-describedby={describedBy('vCode')}
              />
            </FieldRow>
          ) : null}
          <button
            type="submit"
            className={`login-submit${submitting ? ' login-submit--loading' : ''}`}
            aria-busy={submitting}
          >
            {submitting ? <span className="portal-spinner login-submit__spinner" aria-hidden="true" /> : null}
            登录
          </button>
        </form>
      </div>
    </div>
  );
}
