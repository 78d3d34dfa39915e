import { useState } from "react";
import styles from "./avatar.module.css";

export interface AvatarProps {
  name: string;
  image?: string | null;
  size?: "sm" | "md" | "lg";
  /** Told whether `image` loaded, for a caller that says so (a live preview). */
  onImageStatus?(status: "loaded" | "failed"): void;
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0]!, parts[parts.length - 1]!] : parts;
  return letters.map((part) => Array.from(part)[0]!.toUpperCase()).join("") || "?";
}

/** A round picture, or the name's initials when there is none or it fails to load. Decorative: the name is shown beside it. */
export function Avatar({ name, image, size = "md", onImageStatus }: AvatarProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const showImage = Boolean(image) && failed !== image;
  return (
    <span className={`${styles.avatar} ${styles[size]}`} aria-hidden="true">
      {showImage ? (
        <img
          className={styles.image}
          src={image!}
          alt=""
          onLoad={() => onImageStatus?.("loaded")}
          onError={() => {
            setFailed(image!);
            onImageStatus?.("failed");
          }}
          referrerPolicy="no-referrer"
        />
      ) : (
        initials(name)
      )}
    </span>
  );
}
