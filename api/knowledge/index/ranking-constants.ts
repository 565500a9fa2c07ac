/**
 * The constants retrieval ranks passages by (search.ts), each with the figure that chose it. The
 * SQuAD figures are bench/answers-squad.ts's (its tuning half A unless said); the bench site's are
 * bench/chat-load.ts's 5,000 generated pages (83,428 passages) on PostgreSQL. What an answer
 * quotes of the passages found is chosen by api/chat/answer-constants.ts.
 */

/**
 * Okapi BM25's usual constants: term-frequency saturation and the weight of the length
 * normalisation. On SQuAD, k1 0.9 and 1.6 and b 0.5 and 0.9 moved nothing by more than 0.5 points
 * (decision 018), so the usual values stay; the benchmark's BM25 floor uses the same.
 */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/**
 * BM25F: a key word in the passage's title or headings counts this many times one in its text
 * (the two are summed before BM25 saturates them), so the passages under a heading in the
 * question's words come first, and a page's own title finds it. With it, 2 of 500 title questions
 * on the bench site had the wrong page on top, against 26 with fields counted as text; on SQuAD,
 * boosts 1, 2 and 6 moved the first source by 0.3 points at most (decision 018). Without proximity
 * (decision 036), the bench site's title questions under load cite the asked page first for 96.3 %, 92.1 % at 1.
 */
export const FIELD_BOOST = 3;

/**
 * Page evidence: a passage's BM25 is scaled by the share of the question's key-word weight that its
 * page (or file) holds across all its candidate passages, from 1 − PAGE_EVIDENCE (no share) to 1
 * (every key word). A passage of the page about the question's subject then outranks a passage of
 * another page that happens to hold only the question's rarest word. Chosen on SQuAD (decision
 * 018): from 0.6 to 1 the first source was right for 95.0–95.1 % of its questions, at 0.3 for
 * 94.7 %, without it for 94.4 %.
 */
export const PAGE_EVIDENCE = 0.8;

/**
 * A context word (SearchOptions.context) weighs this share of what it would weigh in the question
 * itself. Chosen on SQuAD's follow-up questions (decision 018): 0.5 and 0.7 tie, 0.3 and 1 do worse.
 */
export const CONTEXT_WEIGHT = 0.5;

/**
 * Term proximity, measured, no longer ranked by: the share of the question's key-word weight held
 * by a passage's densest PROXIMITY_WORDS consecutive words (in its text, or in its title and
 * headings) is one of the figures the quality check reads (api/chat/answer-confidence.ts, `near`).
 * It used to multiply a passage's BM25 by 1 + 2 × that share (scaled by its page's evidence to the
 * fourth power), chosen on one SQuAD half (decision 018). Judged across articles (decision 036),
 * without it the median article's first source rose 97.93 → 98.04 % (contains 85.31 → 85.28 %),
 * 1973 oil crisis's first source rose 96.2 → 98.1 % (its floor's), and no article's fell by more
 * than a point (Huguenot −0.9): it did not stay.
 */
export const PROXIMITY_WORDS = 10;

/**
 * The first stage's depth: plain BM25's best FIRST_STAGE_K passages are all the second stage (the
 * signals above) may reorder. With 100, SQuAD's figures (both halves, decision 039) stayed as they
 * were with up to 1,100 candidates reordered: first source 97.4 %, gold answer in retrieval's 20
 * 98.2 %, in its first 86.4 → 86.3 %. The responder asks for 20.
 */
export const FIRST_STAGE_K = 100;

/**
 * Passages the first stage reads for one question at most. Each passage read adds about 5 µs (the
 * database cuts its tsvector down to the key words' counts, Node scores it). On the bench site,
 * where every title word is in 8–45 % of the 83,428 passages and no budget under 10,000 makes the
 * first stage exact, it took 9.6 ms on average with 1,000, 10.8 ms with 2,000 and 11.5 ms with
 * 3,000; retrieval's p95 was 23 ms with 2,000 and 25 ms with 3,000 (19 ms with the capped pools
 * before), the asked page first for 996 of 1,000 questions with each. No question of SQuAD (1,335
 * passages) or of bench/answers.ts with 50,000 generated passages read more than 560, and there
 * the share exact did not move between 1,000 and 5,000 (decision 039). Below FREQUENCY_CAP
 * (corpus-stats.ts), so a word whose count stopped at the cap is never thought small enough to read
 * whole.
 */
export const READ_BUDGET = 2_000;

/**
 * A read takes the next word's passages and those of the words after it while they add up to at
 * most this many (and always enough to reach FIRST_STAGE_K, within the budget): a statement costs
 * 0.3 ms on PostgreSQL before it reads anything, as much as reading about 100 passages (2.2 µs a
 * row in the statement), so cheap words are read together.
 */
export const BATCH_READ = 250;

/**
 * When the budget stops the word-by-word reads, the passages whose title or headings hold every
 * key word left are read first, shortest fields first, at most this many: plain BM25 counts a word
 * there once more, so they are its likeliest best. Decision 018 took 100 such passages for the
 * bench site's title questions (the asked page cited first 94.3 % of the time, against 63–65 %
 * without them).
 */
export const FIELD_READ = 100;

/**
 * A key word in at least this share of the passages is in nearly every one (a site's name, in
 * every page's title): a look-up of the passages holding several key words leaves it out, as it
 * narrows nothing, yet the index reads every entry it has to check it (decision 013: with the
 * store's words counted once, the first-time retrieval on the bench site went from 40–48 to
 * 20–22 ms); its weight still counts.
 */
export const EVERYWHERE_SHARE = 0.9;
