// A set-up step that cannot be done: its message is the sentence shown to the person running the tests, naming
// what is missing and the command that provides it.
export class SetupError extends Error {}
