import {
  bigint,
  bigserial,
  boolean,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

/** Drizzle mirror of migrations/0004_workflow.sql. */
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

export const wfProcessDefs = pgTable('wf_process_defs', {
  docType: text('doc_type').primaryKey(),
  procName: text('proc_name').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  createdBy: bigint('created_by', { mode: 'number' }),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  updatedBy: bigint('updated_by', { mode: 'number' }),
  version: integer('version').notNull().default(0),
});

export const wfProcessSteps = pgTable(
  'wf_process_steps',
  {
    docType: text('doc_type').notNull(),
    stepNo: integer('step_no').notNull(),
    name: text('name').notNull(),
    roleCode: text('role_code').notNull(),
    minAmount: numeric('min_amount', { precision: 18, scale: 2 }),
  },
  (t) => [primaryKey({ columns: [t.docType, t.stepNo] })],
);

export interface InstanceStep {
  no: number;
  name: string;
  roleCode: string;
  roleName: string;
}

export const wfInstances = pgTable('wf_instances', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  docType: text('doc_type').notNull(),
  docCode: text('doc_code').notNull(),
  round: integer('round').notNull(),
  procName: text('proc_name').notNull(),
  subject: text('subject').notNull(),
  amount: numeric('amount', { precision: 18, scale: 2 }),
  state: text('state').notNull().default('pending'),
  steps: jsonb('steps').$type<InstanceStep[]>().notNull(),
  stepCount: integer('step_count').notNull(),
  currentStep: integer('current_step').notNull(),
  stepRole: text('step_role').notNull(),
  submittedBy: bigint('submitted_by', { mode: 'number' }).notNull(),
  submitterName: text('submitter_name').notNull(),
  startTime: ts('start_time').notNull().defaultNow(),
  endTime: ts('end_time'),
  version: integer('version').notNull().default(0),
});

export const wfRecords = pgTable('wf_records', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  instanceId: bigint('instance_id', { mode: 'number' }).notNull(),
  docType: text('doc_type').notNull(),
  docCode: text('doc_code').notNull(),
  round: integer('round').notNull(),
  stepNo: integer('step_no').notNull(),
  stepName: text('step_name').notNull(),
  action: text('action').notNull(),
  actorId: bigint('actor_id', { mode: 'number' }),
  actorName: text('actor_name').notNull(),
  comment: text('comment'),
  at: ts('at').notNull().defaultNow(),
});

export const wfCirculations = pgTable('wf_circulations', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  docType: text('doc_type').notNull(),
  docCode: text('doc_code').notNull(),
  subject: text('subject').notNull(),
  fromUserId: bigint('from_user_id', { mode: 'number' }),
  fromName: text('from_name').notNull(),
  toUserId: bigint('to_user_id', { mode: 'number' }).notNull(),
  message: text('message'),
  sentAt: ts('sent_at').notNull().defaultNow(),
  readAt: ts('read_at'),
});

export const wfSettings = pgTable('wf_settings', {
  id: integer('id').primaryKey(),
  allowSelfApproval: boolean('allow_self_approval').notNull().default(false),
  rolesSeededAt: timestamp('roles_seeded_at', { withTimezone: true, mode: 'string' }),
});
