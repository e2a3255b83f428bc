/** One application as the emulator's store keeps it and its listing answers it. */
export interface ApplicationRecord {
  id: number;
  clientid: number;
  name: string;
  deleted: boolean;
}
