import { z } from "zod";
import { APIError } from "../http/errors.js";
import { ORG_MESSAGES } from "../organization/messages.js";
import {
  memberWithUserSchema,
  organizationSchema,
  publicMemberWithUser,
  publicOrganization,
} from "../organization/public.js";
import { ORGANIZATION_SORT_FIELDS, type OrganizationWithCount } from "../organization/store/directory.js";
import { requirePermission } from "./guard.js";
import { defineAdminEndpoint } from "./deps.js";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, queryInteger } from "./list-users-route.js";
import { ADMIN_MESSAGES } from "./messages.js";

/** Members answered with one organization; the membership limit keeps real organizations well below it. */
const MAX_MEMBERS_SHOWN = 1000;

const organizationWithCountSchema = organizationSchema.extend({ memberCount: z.number() });
const withCount = (organization: OrganizationWithCount) => ({
  ...publicOrganization(organization),
  memberCount: organization.memberCount,
});

/** Every organization, whoever its members are (the member-scoped /organization/list shows only the caller's). */
export const adminListOrganizations = defineAdminEndpoint({
  method: "GET",
  path: "/admin/list-organizations",
  auth: "sensitive",
  query: z.object({
    searchValue: z.string().max(256).optional(),
    limit: queryInteger(MAX_PAGE_SIZE).optional(),
    offset: queryInteger(1_000_000_000).optional(),
    sortBy: z.enum(ORGANIZATION_SORT_FIELDS).default("createdAt"),
    sortDirection: z.enum(["asc", "desc"]).default("asc"),
  }),
  response: z.object({
    organizations: z.array(organizationWithCountSchema),
    total: z.number(),
    limit: z.number(),
    offset: z.number(),
  }),
  summary: "Every organization with its member count, searched by name or slug, sorted and paged",
  tags: ["Admin"],
  async handler(ctx) {
    requirePermission(ctx, { organization: ["list"] }, ADMIN_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_LIST_ORGANIZATIONS);
    const { query } = ctx;
    const page = {
      search: query.searchValue,
      sortBy: query.sortBy,
      sortDirection: query.sortDirection,
      limit: query.limit || DEFAULT_PAGE_SIZE,
      offset: query.offset ?? 0,
    };
    const { organizations, total } = await ctx.runtime.stores.organizationDirectory.listAllOrganizations(page);
    return { organizations: organizations.map(withCount), total, limit: page.limit, offset: page.offset };
  },
});

/** One organization with its members, for an administrator who need not be one of them. */
export const adminGetOrganization = defineAdminEndpoint({
  method: "GET",
  path: "/admin/get-organization",
  auth: "sensitive",
  query: z.object({ id: z.string().min(1).max(256) }),
  response: organizationWithCountSchema.extend({ members: z.array(memberWithUserSchema) }),
  summary: "One organization and its members (the first 1000, oldest first), whoever the caller is a member of",
  tags: ["Admin"],
  async handler(ctx) {
    requirePermission(ctx, { organization: ["get"] }, ADMIN_MESSAGES.YOU_ARE_NOT_ALLOWED_TO_GET_ORGANIZATION);
    const { stores } = ctx.runtime;
    const organization = await stores.organizations.findOrganizationById(ctx.query.id);
    if (!organization) throw new APIError("NOT_FOUND", ORG_MESSAGES.ORGANIZATION_NOT_FOUND);
    const { members, total } = await stores.members.listMembers(organization.id, {
      limit: MAX_MEMBERS_SHOWN,
      offset: 0,
      sortBy: "createdAt",
      sortDirection: "asc",
    });
    return { ...withCount({ ...organization, memberCount: total }), members: members.map(publicMemberWithUser) };
  },
});
