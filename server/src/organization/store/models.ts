/** The organization module's models, independent of how either dialect stores them. */
export interface Organization {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  /** The record as stored: JSON text, or null. */
  metadata: string | null;
  createdAt: Date;
  /** Members without a second factor are refused the organization (README "Organization policy and administrators"). */
  requireTwoFactor: boolean;
}

export interface Member {
  id: string;
  organizationId: string;
  userId: string;
  /** One role or several, comma-joined ("admin,member"). */
  role: string;
  createdAt: Date;
}

/** A member with the public part of their user. */
export interface MemberWithUser extends Member {
  user: { id: string; name: string; email: string; image: string | null };
}

export type InvitationStatus = "pending" | "accepted" | "rejected" | "canceled";

export interface Invitation {
  id: string;
  organizationId: string;
  email: string;
  role: string;
  /** Comma-joined team ids, or null. */
  teamId: string | null;
  status: InvitationStatus;
  expiresAt: Date;
  createdAt: Date;
  inviterId: string;
}

export interface Team {
  id: string;
  name: string;
  organizationId: string;
  createdAt: Date;
  updatedAt: Date | null;
}

export interface TeamMember {
  id: string;
  teamId: string;
  userId: string;
  createdAt: Date;
}
