import { useTranslation } from "react-i18next";
import { Button } from "./ui/button";
import styles from "./admin-list.module.css";

export interface ListPagerProps {
  /** The first row shown, counted from 0. */
  offset: number;
  /** Rows on this page. */
  count: number;
  total: number;
  pageSize: number;
  onOffset(offset: number): void;
}

/** "21–40 of 57" with Previous and Next, under an administration list. */
export function ListPager({ offset, count, total, pageSize, onOffset }: ListPagerProps) {
  const { t } = useTranslation();
  return (
    <nav className={styles.paging} aria-label={t("admin.pagination")}>
      <span className={styles.range} role="status">
        {t("admin.range", { from: offset + 1, to: offset + count, total })}
      </span>
      <Button variant="secondary" size="sm" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - pageSize))}>
        {t("admin.previous")}
      </Button>
      <Button variant="secondary" size="sm" disabled={offset + count >= total} onClick={() => onOffset(offset + pageSize)}>
        {t("admin.next")}
      </Button>
    </nav>
  );
}
