// A folder's settings: what the analysis excludes and compares with, and what the service does when it is done.

export interface FolderSettings {
  excludeReferences: boolean;
  excludeQuotes: boolean;
  excludeSmallSources: boolean;
  grammarCheck: boolean;
  excludePhrases: boolean;
  phrases: string[];
  studentPapers: boolean;
  publications: boolean;
  internet: boolean;
  institutionRepository: boolean;
  emailNotifications: boolean;
  excludeThreshold: number;
}

export const defaultFolderSettings = (): FolderSettings => ({
  excludeReferences: false,
  excludeQuotes: false,
  excludeSmallSources: false,
  grammarCheck: false,
  excludePhrases: false,
  phrases: [],
  studentPapers: true,
  publications: true,
  internet: true,
  institutionRepository: true,
  emailNotifications: false,
  excludeThreshold: 0,
});
