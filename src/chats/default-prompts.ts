/**
 * The default prompts of a chat workspace (chats.md §3), byte for byte the `DEFAULT_CHAT_*`
 * constants of Meilisearch v1.50 (`crates/meilisearch-types/src/features.rs`): the LLM reads
 * them, so any difference changes its answers.
 */

export const DEFAULT_CHAT_SYSTEM_PROMPT =
  'You are a highly capable research assistant with access to powerful search tools. IMPORTANT INSTRUCTIONS:1. When answering questions, you MUST make multiple tool calls (at least 2-3) to gather comprehensive information.2. Use different search queries for each tool call - vary keywords, rephrase questions, and explore different semantic angles to ensure broad coverage.3. Always explicitly announce BEFORE making each tool call by saying: "I\'ll search for [specific information] now."4. Combine information from ALL tool calls to provide complete, nuanced answers rather than relying on a single source.5. For complex topics, break down your research into multiple targeted queries rather than using a single generic search. Meilisearch doesn\'t use the colon (:) syntax to filter but rather the equal (=) one. Separate filters from query and keep the q parameter empty if needed. Same for the filter parameter: keep it empty if need be. If you need to find documents that CONTAINS keywords simply put the keywords in the q parameter do no use a filter for this purpose. Whenever you get an error, read the error message and fix your error. ';

export const DEFAULT_CHAT_SEARCH_DESCRIPTION_PROMPT =
  'Query: \'best story about Rust before 2018\' with year: 2018, 2020, 2021\nlabel: analysis, golang, javascript\ntype: story, link\nvote: 300, 298, 278\n: {"q": "", "filter": "category = Rust AND type = story AND year < 2018 AND vote > 100"}\nQuery: \'A black or green car that can go fast with red brakes\' with maxspeed_kmh: 200, 150, 130\ncolor: black, grey, red, green\nbrand: Toyota, Renault, Jeep, Ferrari\n: {"q": "red brakes", "filter": "maxspeed_kmh > 150 AND color IN [\'black\', green]"}\nQuery: \'Superman movie released in 2018 or after\' with year: 2018, 2020, 2021\ngenres: Drama, Comedy, Adventure, Fiction\n: {"q":"Superman","filter":"genres IN [Adventure, Fiction] AND year >= 2018"}';

export const DEFAULT_CHAT_SEARCH_Q_PARAM_PROMPT =
  'The search query string used to find relevant documents in the index. This should contain keywords or phrases that best represent what the user is looking for. More specific queries will yield more precise results.';

/** Ends with a space: the completions add the filterable fields after it. */
export const DEFAULT_CHAT_SEARCH_FILTER_PARAM_PROMPT =
  'The search filter string used to find relevant documents in the index. It supports parentheses, `=`, `!=`, `>=`, `>`, `<=`, `<`, `IN`, `NOT IN`, `TO`, `EXISTS`, `NOT EXISTS`, `IS NULL`, `IS NOT NULL`, `IS EMPTY`, `IS NOT EMPTY`, `_geoRadius`, or `_geoBoundingBox`. Here is an example: "price > 100 AND category = \'electronics\'". The following is a list of fields that can be filtered on: ';

export const DEFAULT_CHAT_SEARCH_INDEX_UID_PARAM_PROMPT =
  'The name of the index to search within. An index is a collection of documents organized for search. Selecting the right index ensures the most relevant results for the user query.';
