/** JSON shapes of the control API (/__sim/) that are not already types of the platform's parts. */
import type { ActivationRecord, HandshakeAttempt, Registration } from './integrations';
import type { WebhookDelivery } from './webhooks';

export interface WorldSummary {
  tenants: { id: string; name: string }[];
  users: {
    id: number;
    tenant_id: string;
    username: string;
    password: string;
    full_name: string;
    extension: string;
    can_view_all_phonebooks: boolean;
  }[];
  phonebooks: {
    id: number;
    tenant_id: string;
    description: string;
    is_shared: boolean;
    owners: number[];
    contact_count: number;
    /** Devices the phonebook is assigned to (it cannot be deleted while there are any). */
    device_ids: number[];
  }[];
  contact_count: number;
  devices: { id: number; tenant_id: string; name: string; mac: string; phonebook_ids: number[] }[];
  call_queues: ContactGroupSummary[];
  call_flows: ContactGroupSummary[];
  voicemail_boxes: { id: number; tenant_id: string; name: string; extension: number }[];
}

export interface ContactGroupSummary {
  id: number;
  tenant_id: string;
  name: string;
  extension: number;
  /** Contacts used here (they cannot be deleted: contacts_in_use). */
  contact_ids: number[];
}

export interface IntegrationState extends Registration {
  activations: ActivationRecord[];
  attempts: HandshakeAttempt[];
}

export interface WebhookLog {
  /** Deliveries queued or in flight. */
  in_flight: number;
  deliveries: WebhookDelivery[];
}
