// Shows fallback instead of children when they fail to render — above all when their code,
// loaded on demand, cannot be fetched (the network dropped, or the server was updated and the
// old file is gone) — so that one part's failure leaves the rest of the page standing.
import { Component, type ReactNode } from 'react'

export class LoadBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  state = { failed: false }

  static getDerivedStateFromError() {
    return { failed: true }
  }

  // What failed is told to the console: the fallback says only that something did.
  componentDidCatch(error: unknown) {
    console.error(error)
  }

  render() {
    return this.state.failed ? this.props.fallback : this.props.children
  }
}
