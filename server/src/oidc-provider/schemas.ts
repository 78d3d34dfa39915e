import { z } from "zod";

export const statusSuccessSchema = z.object({ success: z.boolean() });
