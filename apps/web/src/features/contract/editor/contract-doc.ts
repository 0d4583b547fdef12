import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ContractInfo } from '@portal/contract/contract';
import { contractQueries, useContractSave, type ContractSave, type PartSaved } from '../api';

/** The contract an editor works on, as every section of it sees it. */
export interface ContractDoc {
  /** '' for a new contract (only 基本信息 can be saved until it exists). */
  bizCode: string;
  info: ContractInfo | undefined;
  /** The contract is being read (`info` is on its way). */
  loading: boolean;
  /** The version the next save sends: the loaded one, then each save's answer. */
  version: number | undefined;
  /** A new, draft or rejected contract. */
  editable: boolean;
  /** Saves a part (with the confirmation); the answer once it succeeded, else null. */
  save: (s: ContractSave) => Promise<PartSaved | null>;
}

export function useContractDoc(bizCode: string): ContractDoc {
  const info = useQuery(contractQueries.info(bizCode));
  const [version, setVersion] = useState<number | undefined>();
  const mutation = useContractSave();
  useEffect(() => {
    if (info.data) setVersion(info.data.version);
  }, [info.data]);

  const save = async (s: ContractSave): Promise<PartSaved | null> => {
    // The request layer has warned of a failure already.
    const r = await mutation.mutateAsync(s).catch(() => null);
    if (!r?.ok || !r.data) return null;
    setVersion(r.data.version);
    return r.data;
  };

  return {
    bizCode,
    info: info.data,
    loading: info.isLoading,
    version,
    editable: !bizCode || info.data?.state === 'draft' || info.data?.state === 'rejected',
    save,
  };
}
