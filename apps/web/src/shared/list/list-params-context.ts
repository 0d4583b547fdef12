import { createContext } from 'react';
import type { ListParams } from '../request/http';

/**
 * The parameters of the list a toolbar sits in (filters through `toFilters`, sort, page): what 导出
 * sends, so the file holds what the list shows.
 */
export const ListParamsContext = createContext<ListParams | undefined>(undefined);
