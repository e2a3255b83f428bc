/** The machine a benchmark ran on, printed above its figures. */
import { cpus, freemem, loadavg, totalmem } from 'node:os';

export interface MachineInfo {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGb: number;
  readonly freeMemoryGb: number;
  readonly node: string;
  readonly platform: string;
  /** 1-minute load average when the run started: other work on the machine skews wall times. */
  readonly loadAverage: number;
}

export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    freeMemoryGb: Math.round((freemem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverage: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}
