/**
 * The sandbox's model catalogue for `GET /models`: real `author/slug` ids with names, context lengths and
 * list prices close to the public catalogue of late 2026 (prices in dollars per million tokens here,
 * served as dollars per token, the service's unit). Enough for a model picker to be tried for real.
 */
import type { Model } from '../../contract/catalog.js';

/** id, name, context length, prompt $/M, completion $/M, release (YYYY-MM-DD), traits (v = image input, r = reasoning). */
type Row = [string, string, number, number, number, string, string];

const ROWS: Row[] = [
  ['openai/gpt-5', 'OpenAI: GPT-5', 400_000, 1.25, 10, '2025-08-07', 'vr'],
  ['openai/gpt-5-mini', 'OpenAI: GPT-5 Mini', 400_000, 0.25, 2, '2025-08-07', 'vr'],
  ['openai/gpt-5-nano', 'OpenAI: GPT-5 Nano', 400_000, 0.05, 0.4, '2025-08-07', 'vr'],
  ['openai/gpt-4.1', 'OpenAI: GPT-4.1', 1_047_576, 2, 8, '2025-04-14', 'v'],
  ['openai/gpt-4.1-mini', 'OpenAI: GPT-4.1 Mini', 1_047_576, 0.4, 1.6, '2025-04-14', 'v'],
  ['openai/gpt-4.1-nano', 'OpenAI: GPT-4.1 Nano', 1_047_576, 0.1, 0.4, '2025-04-14', 'v'],
  ['openai/gpt-4o', 'OpenAI: GPT-4o', 128_000, 2.5, 10, '2024-05-13', 'v'],
  ['openai/gpt-4o-mini', 'OpenAI: GPT-4o-mini', 128_000, 0.15, 0.6, '2024-07-18', 'v'],
  ['openai/o3', 'OpenAI: o3', 200_000, 2, 8, '2025-04-16', 'vr'],
  ['openai/o3-mini', 'OpenAI: o3 Mini', 200_000, 1.1, 4.4, '2025-01-31', 'r'],
  ['openai/o4-mini', 'OpenAI: o4 Mini', 200_000, 1.1, 4.4, '2025-04-16', 'vr'],
  ['openai/o1', 'OpenAI: o1', 200_000, 15, 60, '2024-12-17', 'vr'],
  ['openai/gpt-oss-120b', 'OpenAI: gpt-oss-120b', 131_072, 0.1, 0.5, '2025-08-05', 'r'],
  ['openai/gpt-oss-20b', 'OpenAI: gpt-oss-20b', 131_072, 0.05, 0.2, '2025-08-05', 'r'],
  ['anthropic/claude-opus-4.1', 'Anthropic: Claude Opus 4.1', 200_000, 15, 75, '2025-08-05', 'vr'],
  ['anthropic/claude-opus-4', 'Anthropic: Claude Opus 4', 200_000, 15, 75, '2025-05-22', 'vr'],
  ['anthropic/claude-sonnet-4.5', 'Anthropic: Claude Sonnet 4.5', 1_000_000, 3, 15, '2025-09-29', 'vr'],
  ['anthropic/claude-sonnet-4', 'Anthropic: Claude Sonnet 4', 200_000, 3, 15, '2025-05-22', 'vr'],
  ['anthropic/claude-haiku-4.5', 'Anthropic: Claude Haiku 4.5', 200_000, 1, 5, '2025-10-15', 'vr'],
  ['anthropic/claude-3.7-sonnet', 'Anthropic: Claude 3.7 Sonnet', 200_000, 3, 15, '2025-02-24', 'vr'],
  ['anthropic/claude-3.5-haiku', 'Anthropic: Claude 3.5 Haiku', 200_000, 0.8, 4, '2024-11-04', 'v'],
  ['google/gemini-2.5-pro', 'Google: Gemini 2.5 Pro', 1_048_576, 1.25, 10, '2025-06-17', 'vr'],
  ['google/gemini-2.5-flash', 'Google: Gemini 2.5 Flash', 1_048_576, 0.3, 2.5, '2025-06-17', 'vr'],
  ['google/gemini-2.5-flash-lite', 'Google: Gemini 2.5 Flash Lite', 1_048_576, 0.1, 0.4, '2025-07-22', 'vr'],
  ['google/gemini-2.0-flash-001', 'Google: Gemini 2.0 Flash', 1_048_576, 0.1, 0.4, '2025-02-05', 'v'],
  ['google/gemma-3-27b-it', 'Google: Gemma 3 27B', 131_072, 0.09, 0.17, '2025-03-12', 'v'],
  ['google/gemma-3-12b-it', 'Google: Gemma 3 12B', 131_072, 0.05, 0.1, '2025-03-13', 'v'],
  ['meta-llama/llama-4-maverick', 'Meta: Llama 4 Maverick', 1_048_576, 0.15, 0.6, '2025-04-05', 'v'],
  ['meta-llama/llama-4-scout', 'Meta: Llama 4 Scout', 327_680, 0.08, 0.3, '2025-04-05', 'v'],
  ['meta-llama/llama-3.3-70b-instruct', 'Meta: Llama 3.3 70B Instruct', 131_072, 0.13, 0.39, '2024-12-06', ''],
  ['meta-llama/llama-3.1-405b-instruct', 'Meta: Llama 3.1 405B Instruct', 131_072, 0.8, 0.8, '2024-07-23', ''],
  ['meta-llama/llama-3.1-8b-instruct', 'Meta: Llama 3.1 8B Instruct', 131_072, 0.02, 0.03, '2024-07-23', ''],
  ['mistralai/mistral-large-2411', 'Mistral Large 2411', 131_072, 2, 6, '2024-11-18', ''],
  ['mistralai/mistral-medium-3.1', 'Mistral: Mistral Medium 3.1', 131_072, 0.4, 2, '2025-08-13', 'v'],
  ['mistralai/mistral-small-3.2-24b-instruct', 'Mistral: Mistral Small 3.2 24B', 131_072, 0.05, 0.1, '2025-06-20', 'v'],
  ['mistralai/codestral-2508', 'Mistral: Codestral 2508', 256_000, 0.3, 0.9, '2025-08-01', ''],
  ['mistralai/devstral-medium', 'Mistral: Devstral Medium', 131_072, 0.4, 2, '2025-07-10', ''],
  ['mistralai/ministral-8b', 'Mistral: Ministral 8B', 128_000, 0.1, 0.1, '2024-10-17', ''],
  ['deepseek/deepseek-r1', 'DeepSeek: R1', 163_840, 0.4, 2, '2025-01-20', 'r'],
  ['deepseek/deepseek-r1:free', 'DeepSeek: R1 (free)', 163_840, 0, 0, '2025-01-20', 'r'],
  ['deepseek/deepseek-r1-0528', 'DeepSeek: R1 0528', 163_840, 0.5, 2.15, '2025-05-28', 'r'],
  ['deepseek/deepseek-chat-v3.1', 'DeepSeek: DeepSeek V3.1', 163_840, 0.2, 0.8, '2025-08-21', 'r'],
  ['deepseek/deepseek-chat-v3-0324', 'DeepSeek: DeepSeek V3 0324', 163_840, 0.25, 0.85, '2025-03-24', ''],
  ['x-ai/grok-4', 'xAI: Grok 4', 256_000, 3, 15, '2025-07-09', 'vr'],
  ['x-ai/grok-3', 'xAI: Grok 3', 131_072, 3, 15, '2025-06-10', ''],
  ['x-ai/grok-3-mini', 'xAI: Grok 3 Mini', 131_072, 0.3, 0.5, '2025-06-10', 'r'],
  ['x-ai/grok-code-fast-1', 'xAI: Grok Code Fast 1', 256_000, 0.2, 1.5, '2025-08-26', 'r'],
  ['qwen/qwen3-235b-a22b', 'Qwen: Qwen3 235B A22B', 131_072, 0.13, 0.6, '2025-04-28', 'r'],
  ['qwen/qwen3-coder', 'Qwen: Qwen3 Coder 480B A35B', 262_144, 0.2, 0.8, '2025-07-23', ''],
  ['qwen/qwen3-32b', 'Qwen: Qwen3 32B', 40_960, 0.1, 0.3, '2025-04-28', 'r'],
  ['qwen/qwen-2.5-72b-instruct', 'Qwen2.5 72B Instruct', 32_768, 0.12, 0.39, '2024-09-19', ''],
  ['qwen/qwq-32b', 'Qwen: QwQ 32B', 131_072, 0.15, 0.4, '2025-03-05', 'r'],
  ['moonshotai/kimi-k2', 'MoonshotAI: Kimi K2', 131_072, 0.5, 2.4, '2025-07-11', ''],
  ['z-ai/glm-4.5', 'Z.AI: GLM 4.5', 131_072, 0.6, 2.2, '2025-07-25', 'r'],
  ['z-ai/glm-4.5-air', 'Z.AI: GLM 4.5 Air', 131_072, 0.2, 1.1, '2025-07-25', 'r'],
  ['cohere/command-a', 'Cohere: Command A', 256_000, 2.5, 10, '2025-03-13', ''],
  ['cohere/command-r-plus-08-2024', 'Cohere: Command R+ (08-2024)', 128_000, 2.5, 10, '2024-08-30', ''],
  ['perplexity/sonar-pro', 'Perplexity: Sonar Pro', 200_000, 3, 15, '2025-03-07', 'v'],
  ['perplexity/sonar', 'Perplexity: Sonar', 127_072, 1, 1, '2025-01-27', 'v'],
  ['perplexity/sonar-reasoning-pro', 'Perplexity: Sonar Reasoning Pro', 128_000, 2, 8, '2025-03-07', 'vr'],
  ['amazon/nova-pro-v1', 'Amazon: Nova Pro 1.0', 300_000, 0.8, 3.2, '2024-12-05', 'v'],
  ['amazon/nova-lite-v1', 'Amazon: Nova Lite 1.0', 300_000, 0.06, 0.24, '2024-12-05', 'v'],
  ['amazon/nova-micro-v1', 'Amazon: Nova Micro 1.0', 128_000, 0.035, 0.14, '2024-12-05', ''],
  ['microsoft/phi-4', 'Microsoft: Phi 4', 16_384, 0.07, 0.14, '2025-01-10', ''],
  ['nvidia/llama-3.1-nemotron-70b-instruct', 'NVIDIA: Llama 3.1 Nemotron 70B Instruct', 131_072, 0.12, 0.3, '2024-10-15', ''],
  ['minimax/minimax-m1', 'MiniMax: MiniMax M1', 1_000_000, 0.3, 1.65, '2025-06-17', 'r'],
  ['ai21/jamba-large-1.7', 'AI21: Jamba Large 1.7', 256_000, 2, 8, '2025-07-08', ''],
  ['nousresearch/hermes-3-llama-3.1-405b', 'Nous: Hermes 3 405B Instruct', 131_072, 0.7, 0.8, '2024-08-16', ''],
];

const perToken = (perMillion: number) => (perMillion === 0 ? '0' : (perMillion / 1_000_000).toFixed(12).replace(/\.?0+$/, ''));
const BASE_PARAMS = ['max_tokens', 'temperature', 'top_p', 'stop', 'seed', 'tools', 'tool_choice', 'response_format'];

export const MODELS: readonly Model[] = ROWS.map(([id, name, context, prompt, completion, released, traits]) => {
  const vision = traits.includes('v');
  const reasoning = traits.includes('r');
  const author = id.split('/')[0]!;
  return {
    id,
    canonical_slug: id.replace(/:free$/, ''),
    hugging_face_id: null,
    name,
    created: Math.floor(Date.parse(`${released}T00:00:00Z`) / 1000),
    description: `${name}: a ${reasoning ? 'reasoning ' : ''}model by ${author}, served by the sandbox's local agent.`,
    context_length: context,
    architecture: {
      modality: vision ? 'text+image->text' : 'text->text',
      input_modalities: vision ? ['text', 'image'] : ['text'],
      output_modalities: ['text'],
      tokenizer: 'Other',
      instruct_type: null,
    },
    pricing: { prompt: perToken(prompt), completion: perToken(completion) },
    top_provider: { context_length: context, max_completion_tokens: Math.min(context, 32_768), is_moderated: author === 'openai' || author === 'anthropic' },
    per_request_limits: null,
    supported_parameters: reasoning ? [...BASE_PARAMS, 'reasoning', 'include_reasoning'] : BASE_PARAMS,
    supported_voices: null,
    default_parameters: null,
    links: { details: `/api/v1/models/${id}/endpoints` },
  } as Model;
});
