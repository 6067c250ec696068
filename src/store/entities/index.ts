import { ApiKey } from './api-key.ts';
import { ArchiveReading } from './archive-reading.ts';
import { Evidence } from './evidence.ts';
import { EvidenceUnit } from './evidence-unit.ts';
import { Member } from './member.ts';
import { OutboxEvent } from './outbox.ts';
import { Plot } from './plot.ts';
import { Producer } from './producer.ts';
import { Session } from './session.ts';
import { SignInFailure } from './sign-in-failure.ts';
import { User } from './user.ts';
import { Workspace } from './workspace.ts';

export { ApiKey, ArchiveReading, Evidence, EvidenceUnit, Member, OutboxEvent, Plot, Producer, Session, SignInFailure, User, Workspace };
export { PLANS, type Plan } from './workspace.ts';
export { SEAT_ROLES, type SeatRole } from './member.ts';
export { EVIDENCE_STATES, VALIDATION_STATES, type EvidenceState, type ValidationStateValue } from './plot.ts';
export const entities = [Workspace, User, Member, ApiKey, Session, EvidenceUnit, Producer, Plot, Evidence, OutboxEvent, SignInFailure, ArchiveReading];
