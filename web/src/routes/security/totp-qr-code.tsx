import { generate } from "lean-qr";
import { toSvgPath } from "lean-qr/extras/svg";
import { useMemo } from "react";
import styles from "./totp-qr-code.module.css";

/** Light modules around the code, as the QR specification asks, so a camera finds its edges on any background. */
const QUIET_ZONE = 4;

export interface TotpQrCodeProps {
  /** The otpauth:// URI the authenticator app reads. */
  uri: string;
  label: string;
}

/**
 * The QR code of an authenticator's otpauth:// URI, drawn as one SVG path (lean-qr). Loaded with the enrolment
 * only (security-page.tsx imports it lazily).
 */
export function TotpQrCode({ uri, label }: TotpQrCodeProps) {
  const { size, path } = useMemo(() => {
    const code = generate(uri);
    return { size: code.size, path: toSvgPath(code) };
  }, [uri]);
  const box = size + 2 * QUIET_ZONE;
  return (
    <svg
      className={styles.qr}
      viewBox={`${-QUIET_ZONE} ${-QUIET_ZONE} ${box} ${box}`}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
    >
      <rect x={-QUIET_ZONE} y={-QUIET_ZONE} width={box} height={box} className={styles.background} />
      <path d={path} className={styles.modules} />
    </svg>
  );
}
