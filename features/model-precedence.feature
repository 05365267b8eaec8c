@model-precedence
Feature: Teammate model precedence
  A teammate's model comes from, in order (R6, L14): the role's explicit `provider/id` pin;
  `model: inherit`, meaning the leader's current model and thinking level, re-read at every
  spawn; the team model set for this session with `/agent-teams model`; Pi's own default, meaning
  no --model flag at all. `inherit` while the leader has no model falls through to the team model,
  then to Pi's default. Only `inherit` carries the leader's thinking level. `inherit` is resolved
  here and never reaches Pi as a model name (L14).

  Background:
    Given Pi's model registry holds "anthropic/claude-sonnet-4, anthropic/claude-sonnet-4-5, anthropic/claude-opus-4, openai/gpt-4o, scripted/scripted-1"

  Scenario Outline: the role's model field, the leader's model and the team model decide the flags
    Given the leader runs "<leader>" with thinking level "high"
    And the user ran "/agent-teams model <team>"
    When a teammate is spawned from a role with model "<role>"
    Then the model source is "<source>"
    And the teammate's model flags are "<flags>"

    Examples:
      | role          | leader                  | team                | source       | flags                                                      |
      | openai/gpt-4o | anthropic/claude-opus-4 | scripted/scripted-1 | pin          | --provider openai --model gpt-4o                           |
      | openai/gpt-4o | none                    | default             | pin          | --provider openai --model gpt-4o                           |
      | inherit       | anthropic/claude-opus-4 | scripted/scripted-1 | inherit      | --provider anthropic --model claude-opus-4 --thinking high |
      | inherit       | anthropic/claude-opus-4 | default             | inherit      | --provider anthropic --model claude-opus-4 --thinking high |
      | inherit       | none                    | scripted/scripted-1 | team-default | --provider scripted --model scripted-1                     |
      | inherit       | none                    | default             | pi-default   | none                                                       |
      | none          | anthropic/claude-opus-4 | scripted/scripted-1 | team-default | --provider scripted --model scripted-1                     |
      | none          | anthropic/claude-opus-4 | default             | pi-default   | none                                                       |

  Scenario: inherit re-reads the leader's model and thinking level at every spawn
    Given the leader runs "anthropic/claude-opus-4" with thinking level "high"
    When a teammate is spawned from a role with model "inherit"
    Then the teammate's model flags are "--provider anthropic --model claude-opus-4 --thinking high"
    Given the leader runs "openai/gpt-4o" with thinking level "low"
    When a teammate is spawned from a role with model "inherit"
    Then the teammate's model flags are "--provider openai --model gpt-4o --thinking low"

  Scenario: a pinned model Pi does not know is refused, naming close matches
    When the pinned model "anthropic/claude-sonet-4" is checked against Pi's model registry
    Then the model is refused saying "Model \"anthropic/claude-sonet-4\" is not in Pi's model registry."
    And the model refusal says "Close matches: anthropic/claude-sonnet-4, anthropic/claude-sonnet-4-5."
    And the model refusal says "Models come from Pi's model registry: the built-in providers and the models defined in models.json"

  Scenario: with nothing close, the refusal lists a few known models, same provider first
    When the pinned model "openai/o9-ultra" is checked against Pi's model registry
    Then the model is refused saying "Nothing close; known models include openai/gpt-4o, anthropic/claude-sonnet-4, anthropic/claude-sonnet-4-5, anthropic/claude-opus-4, scripted/scripted-1."

  Scenario: a known pinned model passes the check
    When the pinned model "openai/gpt-4o" is checked against Pi's model registry
    Then the model is accepted

  Scenario Outline: the forms of /agent-teams model
    When the user runs "/agent-teams model <argument>"
    Then the command <outcome> saying "<reply>"

    Examples:
      | argument            | outcome     | reply                                                                                              |
      | scripted/scripted-1 | is accepted | team model: scripted/scripted-1 (set for this session)                                             |
      | default             | is accepted | team model: Pi default                                                                             |
      |                     | is accepted | team model: Pi default                                                                             |
      | gpt-4o              | is refused  | Cannot set the team model to \\"gpt-4o\\": expected provider/id                                    |
      | inherit             | is refused  | inherit is a role's model field value                                                              |
      | scripted/scripted-9 | is refused  | Model \\"scripted/scripted-9\\" is not in Pi's model registry. Close matches: scripted/scripted-1. |

  Scenario: a refused command leaves the team model as it was
    Given the user ran "/agent-teams model scripted/scripted-1"
    When the user runs "/agent-teams model nonsense"
    Then the command is refused saying "Accepted forms: /agent-teams model <provider/id> (e.g. anthropic/claude-sonnet-4) or /agent-teams model default."
    And the team model reads "team model: scripted/scripted-1 (set for this session)"
