import { type FormEvent, useState } from 'react';

export function Contact() {
  const [name, setName] = useState('');
  const [sent, setSent] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSent(true);
  };
  return (
    <section>
      <h1>Write to us</h1>
      <p>We are open from Monday to Saturday, from seven in the morning.</p>
      <form onSubmit={submit}>
        <label>
          Your name
          <input id="name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Jane Doe" />
        </label>
        <label>
          Your message
          <textarea id="message" placeholder="Tell us what you would like to order" />
        </label>
        <button type="submit" id="send">
          Send the message
        </button>
      </form>
      {sent && (
        <p id="thanks">
          Thank you, <b>{name}</b>! We will write back soon.
        </p>
      )}
    </section>
  );
}
